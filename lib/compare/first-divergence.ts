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

/** The same, over steps already read. */
export function divergenceOfSteps(a: readonly RunStep[], b: readonly RunStep[]): Divergence | null {
  const scan = new DivergenceScan();
  for (const step of a) scan.add('a', step);
  for (const step of b) scan.add('b', step);
  return scan.divergence();
}

/**
 * The first divergence, read as both runs' steps arrive. Steps only ever append, so a step
 * matched on both sides is matched for good and is dropped, and a divergence once found is
 * final (two different steps stay different; an ended run stays ended). What it holds is the
 * steps one side has that the other has not reached yet, and nothing after a divergence.
 */
export class DivergenceScan {
  private readonly pending = { a: [] as RunStep[], b: [] as RunStep[] };
  private readonly ended = { a: false, b: false };
  private matched = 0;
  private found: Divergence | null = null;

  add(side: 'a' | 'b', step: RunStep): void {
    if (this.found) return;
    // A run ends with its terminate: a step after it (there is none in a real log) reopens it.
    this.ended[side] = isTerminate(step);
    this.pending[side].push(step);
  }

  /** Steps held for a side the other has not caught up with. */
  get held(): number {
    return this.pending.a.length + this.pending.b.length;
  }

  divergence(): Divergence | null {
    if (this.found) return this.found;
    const { a, b } = this.pending;
    let i = 0;
    for (; i < a.length && i < b.length; i += 1) if (a[i]!.key !== b[i]!.key) break;
    const x = a[i];
    const y = b[i];
    // One side has no step here: that is a divergence only if it has ended.
    const open = (!x && !this.ended.a) || (!y && !this.ended.b) || (!x && !y);
    if (open) {
      this.matched += i;
      a.splice(0, i);
      b.splice(0, i);
      return null;
    }
    this.found = {
      turn: earlierTurn(x, y),
      step: this.matched + i,
      a: x ? { seq: x.seq, turn: x.turn, label: x.label } : null,
      b: y ? { seq: y.seq, turn: y.turn, label: y.label } : null,
      description: describe(x, y),
    };
    a.length = 0;
    b.length = 0;
    return this.found;
  }
}

function isForkEdit(step: RunStep | undefined): boolean {
  return step?.kind === 'control' && step.key.startsWith('control:["fork_edit"');
}

function isTerminate(step: RunStep): boolean {
  return step.kind === 'end' && step.key.startsWith('end:["terminate"');
}

function earlierTurn(x: RunStep | undefined, y: RunStep | undefined): number | null {
  const turns = [x?.turn, y?.turn].filter((t): t is number => typeof t === 'number');
  return turns.length > 0 ? Math.min(...turns) : null;
}

/** What differed, in one line; where (the turn) is the divergence's own field, said once by whoever shows it. */
function describe(x: RunStep | undefined, y: RunStep | undefined): string {
  // A fork's edit of the state it starts from: the edit is what differs, whatever the other side did next.
  const edited = isForkEdit(y)
    ? { side: 'B', step: y! }
    : isForkEdit(x)
      ? { side: 'A', step: x! }
      : undefined;
  if (edited) return `${edited.side} starts from an edited state: ${edited.step.label}`;
  if (x && y && x.kind === y.kind) {
    const what = KIND_WORD[x.kind];
    if (x.label === y.label) return `the ${what} differs in content — both ${x.label}`;
    return `the ${what} differs — A ${x.label} · B ${y.label}`;
  }
  return `A ${x ? x.label : 'had no further step'} · B ${y ? y.label : 'had no further step'}`;
}

const KIND_WORD: Record<RunStep['kind'], string> = {
  request: 'request',
  response: 'response',
  error: 'error',
  retry: 'retry',
  recovery: 'recovery step',
  tool: 'tool call',
  fault: 'fault',
  replay: 'replay step',
  control: 'control',
  end: 'ending',
};
