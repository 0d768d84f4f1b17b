import type { TotalsDiffRow, TotalsUnit } from '@/lib/protocol/http/compare';
import type { RunTotals } from './run-totals';

type Rank = 'low' | 'high' | null;

/** Lines that measure how dear the work was: they only compare runs that ended alike. */
const EFFORT = new Set<keyof RunTotals>(['durationMs', 'usd', 'wastedTokens', 'failedAttempts']);

/** What each total means and which way is better (token counts alone are neither: a run that gives up early uses fewer). */
const LINES: { id: Exclude<keyof RunTotals, 'final'>; label: string; unit: TotalsUnit; better: Rank }[] = [
  { id: 'reason', label: 'outcome', unit: 'text', better: null },
  { id: 'complete', label: 'loop finished its work', unit: 'text', better: 'high' },
  { id: 'verdict', label: 'task verdict', unit: 'text', better: 'high' },
  { id: 'durationMs', label: 'run time', unit: 'ms', better: 'low' },
  { id: 'inputTokens', label: 'tokens in', unit: 'tokens', better: null },
  { id: 'outputTokens', label: 'tokens out', unit: 'tokens', better: null },
  { id: 'usd', label: 'cost', unit: 'usd', better: 'low' },
  { id: 'wastedTokens', label: 'tokens spent on failed attempts', unit: 'tokens', better: 'low' },
  { id: 'errorsSeen', label: 'errors the user would have seen', unit: 'count', better: 'low' },
  { id: 'attempts', label: 'model requests', unit: 'count', better: null },
  { id: 'failedAttempts', label: 'failed attempts', unit: 'count', better: 'low' },
];

const VERDICT_RANK: Record<string, number> = { done: 2, not_checkable: 1, not_done: 0 };

/**
 * The totals of two runs side by side, each line marked with the side that did better where
 * "better" means something: finished over not, task done over not done, less time, cost,
 * waste and fewer errors seen (time, cost and waste only between runs that ended alike). Nothing is marked while either run goes on: its totals are
 * only so far (and what is known only at the end is null).
 */
export function totalsDiff(a: RunTotals, b: RunTotals): TotalsDiffRow[] {
  const final = a.final && b.final;
  // A run that gave up is quicker and cheaper than one that finished; calling that "better"
  // would teach the wrong lesson, so effort lines are judged only between runs that ended alike.
  const endedAlike = a.complete === b.complete;
  return LINES.map((line) => {
    const unjudged = final && !endedAlike && EFFORT.has(line.id) && a[line.id] !== b[line.id];
    return {
      id: line.id,
      label: line.label,
      unit: line.unit,
      a: shown(a[line.id]),
      b: shown(b[line.id]),
      better: final && !unjudged ? better(line, a[line.id], b[line.id]) : null,
      note: unjudged ? 'not judged: only one run finished its work' : null,
    };
  });
}

function shown(value: RunTotals[keyof RunTotals]): number | string | null {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return value;
}

function better(line: (typeof LINES)[number], x: RunTotals[keyof RunTotals], y: RunTotals[keyof RunTotals]): 'a' | 'b' | null {
  if (line.better === null || x === y) return null;
  const rank = (v: RunTotals[keyof RunTotals]): number =>
    typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : v === null ? -1 : (VERDICT_RANK[v] ?? -1);
  const rx = rank(x);
  const ry = rank(y);
  if (rx === ry) return null;
  const aWins = line.better === 'low' ? rx < ry : rx > ry;
  return aWins ? 'a' : 'b';
}
