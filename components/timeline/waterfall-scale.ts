/** Time-axis math for the waterfall: a "nice" domain that grows in steps, and its ticks. */

const STEPS = [1, 2, 2.5, 5, 10];
/** Finer than tick steps, so a finished run fills most of the axis (27 s → 30 s, not 50 s). */
const DOMAIN_STEPS = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];

function niceStep(span: number, count: number): number {
  const raw = span / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const s of STEPS) if (s * pow >= raw) return s * pow;
  return 10 * pow;
}

/** Rounds the run's duration up so the domain (and every row) changes rarely while live. */
export function niceDomain(ms: number): number {
  const v = Math.max(ms * 1.05, 1000);
  const pow = 10 ** Math.floor(Math.log10(v));
  for (const s of DOMAIN_STEPS) if (s * pow >= v) return s * pow;
  return 10 * pow;
}

export function ticks(domain: number, count = 6): number[] {
  return ticksBetween(0, domain, count);
}

/** Room one axis label needs on screen ("2 min 30 s" in the small mono face, with a gap). */
export const TICK_LABEL_PX = 84;

/**
 * How many ticks an axis this many px wide can label without them running into each other:
 * six on a desktop, fewer on a phone (ticks are at least span / count apart).
 */
export function axisTickCount(widthPx: number): number {
  return Math.max(2, Math.min(6, Math.floor(widthPx / TICK_LABEL_PX)));
}

/** Round ticks inside [from, to] (a zoomed window). */
export function ticksBetween(from: number, to: number, count = 6): number[] {
  const step = niceStep(Math.max(to - from, 1), count);
  const out: number[] = [];
  for (let t = Math.ceil(from / step - 1e-9) * step; t <= to + 1e-9; t += step) out.push(t);
  return out;
}

/** Percent position of a run time on the axis. */
export function pct(ts: number, domain: number): string {
  const v = Math.min(100, Math.max(0, (ts / domain) * 100));
  return `${v.toFixed(3)}%`;
}

export function pctWidth(from: number, to: number, domain: number): string {
  const w = Math.max(0, ((Math.min(to, domain) - Math.max(from, 0)) / domain) * 100);
  return `${Math.max(w, 0.15).toFixed(3)}%`;
}
