import { exactUsd } from '@/lib/protocol';
import type {
  Criterion,
  Direction,
  TotalsDiffRow,
  TotalsLineId,
  TotalsUnit,
} from '@/lib/protocol/http/compare';
import type { ModuleTotalsLine } from '@/lib/mechanisms/module';
import { MODULE_TOTALS_LINES } from '@/lib/mechanisms/modules/about';
import type { RunTotals } from './run-totals';

export type { Criterion, Direction, TotalsLineId };

export interface JudgeOptions {
  criterion?: Criterion | undefined;
  /**
   * The two runs differ only in prompt text on a simulated vendor (promptOnlyDifference): the
   * simulated model does not read prompts, so no difference between them is the prompt's effect.
   */
  promptOnly?: boolean | undefined;
  /** The modules' lines to show (MODULE_TOTALS_LINES unless given). */
  moduleLines?: readonly ModuleTotalsLine[] | undefined;
}

/** Lines that measure how dear the work was: without a criterion they only compare runs that ended alike. */
const EFFORT = new Set<TotalsLineId>(['durationMs', 'usd', 'wastedTokens', 'failedAttempts']);

/** What each total means and which way is better (token counts alone are neither: a run that gives up early uses fewer). */
const LINES: {
  id: TotalsLineId;
  label: string;
  unit: TotalsUnit;
  better: Direction | null;
  /** Shown only where either run counted any (a sub-agent's spend means nothing to a run that started none). */
  whenCounted?: true;
}[] = [
  { id: 'reason', label: 'outcome', unit: 'text', better: null },
  { id: 'complete', label: 'loop finished its work', unit: 'text', better: 'high' },
  { id: 'verdict', label: 'task verdict', unit: 'text', better: 'high' },
  { id: 'trustedEditedTests', label: 'model-edited tests the verdict trusted', unit: 'count', better: 'low' },
  { id: 'durationMs', label: 'run time', unit: 'ms', better: 'low' },
  { id: 'turns', label: 'turns', unit: 'count', better: null },
  { id: 'inputTokens', label: 'tokens in', unit: 'tokens', better: null },
  { id: 'outputTokens', label: 'tokens out', unit: 'tokens', better: null },
  { id: 'usd', label: 'cost', unit: 'usd', better: 'low' },
  { id: 'wastedTokens', label: 'tokens spent on failed attempts', unit: 'tokens', better: 'low' },
  { id: 'errorsSeen', label: 'errors the user would have seen', unit: 'count', better: 'low' },
  { id: 'attempts', label: 'model requests', unit: 'count', better: null },
  { id: 'httpRequests', label: 'HTTP requests sent (SDK resends included)', unit: 'count', better: null },
  { id: 'failedAttempts', label: 'failed attempts', unit: 'count', better: 'low' },
  { id: 'failedToolRuns', label: 'tool runs that failed', unit: 'count', better: null },
  { id: 'titled', label: 'run got its title', unit: 'text', better: null },
  // Sub-agents' spend, apart from the run's own lines (each child's subagent_end): shown where counted, not judged.
  {
    id: 'subagentInputTokens',
    label: 'sub-agents: tokens in',
    unit: 'tokens',
    better: null,
    whenCounted: true,
  },
  {
    id: 'subagentOutputTokens',
    label: 'sub-agents: tokens out',
    unit: 'tokens',
    better: null,
    whenCounted: true,
  },
  { id: 'subagentUsd', label: 'sub-agents: cost', unit: 'usd', better: null, whenCounted: true },
  {
    id: 'subagentRequests',
    label: 'sub-agents: model requests',
    unit: 'count',
    better: null,
    whenCounted: true,
  },
];

/** The words a line is labelled with (a criterion's lines are named with them). */
export const TOTALS_LINE_LABEL = Object.fromEntries(LINES.map((l) => [l.id, l.label])) as Record<
  TotalsLineId,
  string
>;

const VERDICT_RANK: Record<string, number> = { done: 2, not_checkable: 1, not_done: 0 };

/** Why a line that differs is not judged. */
export const NOT_JUDGED = {
  endedApart: 'not judged: only one run finished its work',
  realClock: 'not judged: real-clock time from one run a side is within the machine’s own variation',
  promptTokens: 'not judged: only the prompts’ own tokens differ — the simulated model does not read prompts',
  promptOnly: 'not judged: the simulated model does not read prompts',
  notMeasure: 'not judged: not this lesson’s measure',
} as const;

export { exactUsd };

type Value = RunTotals[TotalsLineId];

/** The value a line is compared on: exact units, so values that are the same are equal. */
function exact(id: TotalsLineId, v: Value): Value {
  return (id === 'usd' || id === 'subagentUsd') && typeof v === 'number' ? exactUsd(v) : v;
}

/**
 * The totals of two runs side by side, each line marked with the side that did better where
 * "better" means something and the difference is real. Without a criterion: finished over not,
 * task done over not done, less time, cost, waste and fewer errors seen (time, cost and waste
 * only between runs that ended alike); with one, only its lines. Never judged: equal values
 * (cost compared in exact units, not as float sums), a real-clock run time (one run a side
 * cannot tell an effect from the machine's own variation; a virtual- or paced-clock time is
 * deterministic and compared exactly), and anything between runs that differ only in prompt
 * text on a simulated vendor. Nothing is marked while either run goes on: its totals are only
 * so far (and what is known only at the end is null).
 */
export function totalsDiff(a: RunTotals, b: RunTotals, options: JudgeOptions = {}): TotalsDiffRow[] {
  const final = a.final && b.final;
  // A run that gave up is quicker and cheaper than one that finished; calling that "better"
  // would teach the wrong lesson, so effort lines are judged only between runs that ended alike.
  const endedAlike = a.complete === b.complete;
  // The paced clock is the virtual one watched at a pace: its run times are the virtual run's.
  const deterministicTime = a.clock !== null && a.clock !== 'real' && b.clock !== null && b.clock !== 'real';
  const shownLines = LINES.filter((line) => !line.whenCounted || a[line.id] !== 0 || b[line.id] !== 0);
  const built = shownLines.map((line) => {
    const x = a[line.id];
    const y = b[line.id];
    const judged = final
      ? judge(line, x, y, { ...options, endedAlike, deterministicTime })
      : { better: null, note: null };
    return {
      id: line.id,
      label: line.label,
      unit: line.unit,
      a: shown(line.id, x),
      b: shown(line.id, y),
      ...judged,
    };
  });
  return [...built, ...moduleRows(a, b, final, { ...options, endedAlike, deterministicTime })];
}

/** The modules' lines (MODULE_TOTALS_LINES), each shown where either run counted any, judged as a built-in line is. */
function moduleRows(
  a: RunTotals,
  b: RunTotals,
  final: boolean,
  context: JudgeOptions & { endedAlike: boolean; deterministicTime: boolean },
): TotalsDiffRow[] {
  return (context.moduleLines ?? MODULE_TOTALS_LINES).flatMap((line) => {
    const x = a.moduleLines?.[line.id] ?? 0;
    const y = b.moduleLines?.[line.id] ?? 0;
    if (x === 0 && y === 0) return [];
    const as = {
      id: line.id as unknown as TotalsLineId,
      label: line.label,
      unit: 'count' as const,
      better: line.better,
    };
    const judged = final ? judge(as, x, y, context) : { better: null, note: null };
    return [{ id: line.id, label: line.label, unit: 'count' as const, a: x, b: y, ...judged }];
  });
}

function judge(
  line: (typeof LINES)[number],
  x: Value,
  y: Value,
  context: JudgeOptions & { endedAlike: boolean; deterministicTime: boolean },
): Pick<TotalsDiffRow, 'better' | 'note'> {
  const none = (note: string | null) => ({ better: null, note });
  if (exact(line.id, x) === exact(line.id, y)) return none(null);
  if (context.promptOnly)
    return none(
      line.id === 'inputTokens' || line.id === 'usd' ? NOT_JUDGED.promptTokens : NOT_JUDGED.promptOnly,
    );
  const direction = context.criterion ? (context.criterion.lines[line.id] ?? null) : line.better;
  if (direction === null)
    return none(context.criterion && line.better !== null ? NOT_JUDGED.notMeasure : null);
  if (line.id === 'durationMs' && !context.deterministicTime) return none(NOT_JUDGED.realClock);
  if (!context.criterion && !context.endedAlike && EFFORT.has(line.id)) return none(NOT_JUDGED.endedApart);
  return { better: better(direction, exact(line.id, x), exact(line.id, y)), note: null };
}

/** A line's value as sent: cost in whole picodollars (so equal costs are the same number), booleans in words. */
function shown(id: TotalsLineId, value: Value): number | string | null {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if ((id === 'usd' || id === 'subagentUsd') && typeof value === 'number') return exactUsd(value) / 1e12;
  return value;
}

function better(direction: Direction, x: Value, y: Value): 'a' | 'b' | null {
  const rank = (v: Value): number =>
    typeof v === 'number'
      ? v
      : typeof v === 'boolean'
        ? Number(v)
        : v === null
          ? -1
          : (VERDICT_RANK[v] ?? -1);
  const rx = rank(x);
  const ry = rank(y);
  if (rx === ry) return null;
  const aWins = direction === 'low' ? rx < ry : rx > ry;
  return aWins ? 'a' : 'b';
}

/**
 * Which side the judged lines favour: 'a' or 'b' when every ▲ goes one way, 'mixed' when
 * they split, null when no line was judged (equal, or nothing it could fairly judge).
 */
export function judgedBetter(rows: readonly TotalsDiffRow[]): {
  side: 'a' | 'b' | 'mixed' | null;
  lines: { a: string[]; b: string[] };
} {
  const lines = {
    a: rows.filter((r) => r.better === 'a').map((r) => r.label),
    b: rows.filter((r) => r.better === 'b').map((r) => r.label),
  };
  const side =
    lines.a.length > 0 && lines.b.length > 0
      ? 'mixed'
      : lines.a.length > 0
        ? 'a'
        : lines.b.length > 0
          ? 'b'
          : null;
  return { side, lines };
}
