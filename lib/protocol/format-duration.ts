/**
 * Every duration as Loop Lab writes it, for people: the page, the events' reason lines, the
 * comparison's steps and the lessons' words all use this one function.
 *
 *   850 ms · 1.5 s · 60 s · 120 s · 2 min 30 s · 3 min 27 s · 5 min · 24 h · 2 h 05 min
 *
 * Under a second in whole milliseconds; up to two minutes in seconds to a tenth (a trailing
 * ".0" dropped: the presets' 120 s watchdog reads as its description says); under two hours in minutes and seconds; then hours and minutes. A whole
 * number of minutes or hours is said without its zero part. Not a number: "–".
 */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (Math.round(abs) < 1000) return `${sign}${Math.round(abs)} ms`;
  const tenths = Math.round(abs / 100);
  if (tenths <= 1200) return `${sign}${tenths / 10} s`;
  const seconds = Math.round(abs / 1000);
  if (seconds < 7200) return `${sign}${pair(Math.floor(seconds / 60), 'min', seconds % 60, 's')}`;
  const minutes = Math.round(abs / 60_000);
  return `${sign}${pair(Math.floor(minutes / 60), 'h', minutes % 60, 'min')}`;
}

function pair(major: number, majorUnit: string, minor: number, minorUnit: string): string {
  return minor === 0
    ? `${major} ${majorUnit}`
    : `${major} ${majorUnit} ${String(minor).padStart(2, '0')} ${minorUnit}`;
}
