import type { EventOf } from '@/lib/protocol';
import type { RunViewState } from '@/lib/run-view/run-view-state';
import { addMarker, turnLabel } from '@/lib/run-view/turn-updates';

const STATUS = {
  accept: { valid: 'the answer matches the schema', repaired: 'the answer, repaired, matches the schema' },
  reask: 'the answer does not match the schema: asked again',
  run_ends: 'the run ends with an answer that does not match the schema',
} as const;

/** The run view of a structured_answer event: a marker on the timeline with its why, and the run's status line. */
export function reduceStructuredAnswer(s: RunViewState, e: EventOf<'structured_answer'>): RunViewState {
  const status =
    e.outcome === 'refused'
      ? 'the model refused to answer'
      : e.next === 'accept'
        ? STATUS.accept[e.outcome === 'repaired' ? 'repaired' : 'valid']
        : STATUS[e.next];
  return {
    ...s,
    markers: addMarker(s, {
      seq: e.seq,
      ts: e.ts,
      kind: 'log',
      label: status,
      detail: e.why,
      iteration: e.iteration,
      level: e.next === 'accept' ? 'info' : e.next === 'reask' ? 'warn' : 'error',
    }),
    ...(e.next === 'reask' ? { status: 'recovering' as const } : {}),
    reason: `${turnLabel(e.iteration)}: ${status}`,
  };
}

export const VIEW = { structured_answer: reduceStructuredAnswer };
