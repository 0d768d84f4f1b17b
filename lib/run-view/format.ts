import type { ErrorCategory } from '@/lib/protocol';
import { categoryLabel } from '@/lib/protocol/category-label';

/** Durations: the one formatter, in lib/protocol (the engine's reasons and the lessons' words use it too). */
export { formatMs } from '@/lib/protocol/format-duration';

/** A run clock reading: 0:04.1, 12:30.0. */
export function formatClock(ms: number): string {
  const total = Math.max(0, ms) / 1000;
  const m = Math.floor(total / 60);
  const s = total - m * 60;
  return `${m}:${s.toFixed(1).padStart(4, '0')}`;
}

/**
 * The real clock's time scale in words. `timeScale` is wall time per unit of run time, so
 * 0.1 runs ten times faster than life and 5 five times slower; a bare "×5" reads the wrong way.
 */
export function timeScaleLabel(timeScale: number): string {
  if (timeScale === 1) return 'real time';
  const round = (n: number) => (n >= 10 ? Math.round(n) : Math.round(n * 10) / 10).toLocaleString('en-US');
  return timeScale < 1 ? `${round(1 / timeScale)}× faster` : `${round(timeScale)}× slower`;
}

export function formatTokens(n: number | undefined): string {
  if (n === undefined) return '–';
  if (n < 10_000) return n.toLocaleString('en-US');
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

export function formatUsd(n: number | undefined): string {
  if (n === undefined) return '–';
  if (n === 0) return '$0';
  if (n < 0.01) return `$${n.toFixed(4)}`;
  return `$${n.toFixed(n < 1 ? 3 : 2)}`;
}

/** A share as a whole percentage ("42 %"); under 1 % but not zero, "<1 %". */
export function formatPercent(share: number): string {
  if (share > 0 && share < 0.01) return '<1 %';
  return `${Math.round(share * 100)} %`;
}

/** What a prompt cache did to the cost: "saved $0.0123", or "cost $0.0009 more" when its writes outweighed its reads. */
export function cacheSavingLabel(savedUsd: number): string {
  return savedUsd >= 0 ? `saved ${formatUsd(savedUsd)}` : `cost ${formatUsd(-savedUsd)} more`;
}

/**
 * Two costs side by side: as formatUsd writes them, with more decimals where that would show
 * two different costs as the same figure ($0.116 / $0.116), so a difference judged is a
 * difference seen.
 */
export function formatUsdApart(x: number, y: number): [string, string] {
  let [a, b] = [formatUsd(x), formatUsd(y)];
  for (let digits = 4; a === b && x !== y && digits <= 12; digits += 1)
    [a, b] = [`$${x.toFixed(digits)}`, `$${y.toFixed(digits)}`];
  return [a, b];
}

/** Re-exported for the browser's components, which take their words from lib/client. */
export { categoryLabel };

/** "529 overloaded", "rate limited", "stream stalled". */
export function errorCause(
  error: { status?: number; category: ErrorCategory } | undefined,
  category?: ErrorCategory,
): string {
  if (!error) return category ? categoryLabel(category) : 'error';
  const label = categoryLabel(error.category);
  return error.status !== undefined ? `${error.status} ${label}` : label;
}

/** "3 keepalive pings", "1 keepalive comment". */
export function keepaliveLabel(count: number, style: 'ping' | 'comment'): string {
  return `${count} keepalive ${style}${count === 1 ? '' : 's'}`;
}

/** "1 run", "2 runs", "0 runs": a count with its noun in the right number. */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? noun : plural}`;
}

export function truncateText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** A file's size as the page writes it: 950 B, 31 KB, 2.4 MB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
