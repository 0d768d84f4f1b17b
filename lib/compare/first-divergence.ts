import type { RunEvent } from '@/lib/protocol';
import type { Divergence } from '@/lib/protocol/http/compare';
import { runSteps, type RunStep } from './run-steps';

export type { Divergence, DivergentStep } from '@/lib/protocol/http/compare';

/**
 * The first divergence of two runs. Each log is read as its sequence of steps (`runSteps`:
 * requests as sent, responses, errors, retries, recovery steps, tool calls and results,
 * faults, controls, the task verdict and terminate; times, latencies and stream ids are not
 * part of a step). The divergence is the first position where the two sequences hold
 * different steps; its turn is the earlier of the two steps' turns. A side whose log stops
 * before that point without a terminate is still running: no divergence yet. Two runs of the
 * same config and seed have none.
 */
export function firstDivergence(a: readonly RunEvent[], b: readonly RunEvent[]): Divergence | null {
  return divergenceOfSteps(runSteps(a), runSteps(b));
}

/** The same, over steps already read (compareRuns reads them once for alignment and divergence). */
export function divergenceOfSteps(a: readonly RunStep[], b: readonly RunStep[]): Divergence | null {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a[i];
    const y = b[i];
    if (x && y && x.key === y.key) continue;
    // One side has no step here: that is a divergence only if it has ended.
    if (!x && !endedBy(a)) return null;
    if (!y && !endedBy(b)) return null;
    return {
      turn: earlierTurn(x, y),
      step: i,
      a: x ? { seq: x.seq, turn: x.turn, label: x.label } : null,
      b: y ? { seq: y.seq, turn: y.turn, label: y.label } : null,
      description: describe(x, y),
    };
  }
  return null;
}

function endedBy(steps: readonly RunStep[]): boolean {
  const last = steps.at(-1);
  return last !== undefined && last.kind === 'end' && last.key.startsWith('end:["terminate"');
}

function earlierTurn(x: RunStep | undefined, y: RunStep | undefined): number | null {
  const turns = [x?.turn, y?.turn].filter((t): t is number => typeof t === 'number');
  return turns.length > 0 ? Math.min(...turns) : null;
}

function describe(x: RunStep | undefined, y: RunStep | undefined): string {
  const where = earlierTurn(x, y);
  const at = where === null ? 'At the end' : `Turn ${where}`;
  if (x && y && x.kind === y.kind) {
    const what = KIND_WORD[x.kind];
    if (x.label === y.label) return `${at}: the ${what} differs in content — both ${x.label}`;
    return `${at}: the ${what} differs — A ${x.label} · B ${y.label}`;
  }
  return `${at}: A ${x ? x.label : 'had no further step'} · B ${y ? y.label : 'had no further step'}`;
}

const KIND_WORD: Record<RunStep['kind'], string> = {
  request: 'request',
  response: 'response',
  error: 'error',
  retry: 'retry',
  recovery: 'recovery step',
  tool: 'tool call',
  fault: 'fault',
  control: 'control',
  end: 'ending',
};
