import type { RunEvent } from '@/lib/protocol';
import { describeStep } from './event-steps';

/**
 * One step of a run that a comparison looks at: what was asked, what came back, what the
 * tools did and every recovery step, with the wall-clock details (ts, latency, ttfb, ids
 * of the stream) left out. Two runs of the same config and seed produce the same steps;
 * the first step that differs is where they diverged.
 */
export interface RunStep {
  seq: number;
  /** The turn (iteration) the step belongs to; null for the run's end (verdict, terminate). */
  turn: number | null;
  /** What kind of step, for the condensed card. */
  kind:
    'request' | 'response' | 'error' | 'retry' | 'recovery' | 'tool' | 'fault' | 'replay' | 'control' | 'end';
  /** Part of an auxiliary (background) call such as the title. */
  background: boolean;
  /** Canonical content: equal keys mean the same step. */
  key: string;
  /** One line a person can read. */
  label: string;
}

/** Reads the steps of a log in order. Events that carry no behaviour of their own are skipped. */
export function runSteps(events: readonly RunEvent[]): RunStep[] {
  const read = createStepReader();
  const steps: RunStep[] = [];
  for (const e of events) {
    const step = read(e);
    if (step) steps.push(step);
  }
  return steps;
}
/**
 * The step reader itself, fed one event at a time in log order: the step that event is, or
 * null. It keeps only what a later step depends on (the last turn, whether a background call
 * is open), so a comparison following a live run reads each event once.
 */
export function createStepReader(): (e: RunEvent) => RunStep | null {
  let background = false;
  let lastTurn = 0;
  return (e) => {
    const turn = 'iteration' in e && typeof e.iteration === 'number' ? e.iteration : null;
    if (turn !== null) lastTurn = turn;
    // A background call is open from its request to its response; a new turn and the run's end close it.
    if (e.event === 'model_request') background = e.background;
    else if (e.event === 'llm_call') background = e.background === true;
    else if (e.event === 'iteration_start' || e.event === 'task_verdict' || e.event === 'terminate')
      background = false;
    const described = describeStep(e, turn ?? lastTurn, turn);
    const step: RunStep | null = described && {
      seq: e.seq,
      turn: described.turn,
      kind: described.kind,
      background,
      key: `${described.kind}:${background ? 'bg:' : ''}${stableJson(described.content)}`,
      label: described.label,
    };
    if (e.event === 'llm_call') background = false;
    return step;
  };
}

/** JSON with object keys sorted, so equal content gives an equal key whatever the key order. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
      );
    }
    return v;
  });
}
