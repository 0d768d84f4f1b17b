import type { EventOf, RunEvent } from '@/lib/protocol';
import { reduceRunEvent } from '@/lib/run-view/reduce-run-event';
import { initialRunViewState, type NestedRunView, type RunViewState } from '@/lib/run-view/run-view-state';
import { addMarker, turnLabel, updateTurn } from '@/lib/run-view/turn-updates';

type ChildEvent = EventOf<'subagent_start' | 'subagent_event' | 'subagent_end'>;

/** Replaces the nested run this event is about (its child and try) in its parent turn with `fn(run)`. */
function updateNested(
  s: RunViewState,
  e: ChildEvent,
  fn: (nested: NestedRunView | undefined) => NestedRunView | undefined,
): RunViewState {
  return {
    ...s,
    turns: updateTurn(s, e.iteration, e.ts, (turn) => {
      const list = turn.nested ?? [];
      const at = list.findIndex((n) => n.id === e.child && n.try === e.try);
      const next = fn(at < 0 ? undefined : list[at]);
      if (!next) return turn;
      const nested = list.slice();
      if (at < 0) nested.push(next);
      else nested[at] = next;
      return { ...turn, nested };
    }),
  };
}

/** A child starts: a nested run under its tool call, empty until its events come. */
function reduceStart(s: RunViewState, e: EventOf<'subagent_start'>): RunViewState {
  return updateNested(s, e, () => ({
    id: e.child,
    callId: e.call_id,
    try: e.try,
    task: e.task,
    model: e.model,
    why: e.why,
    run: { ...initialRunViewState(), runId: e.child, status: 'running', reason: e.why },
  }));
}

/** One of the child's events, folded into its own run view (its place in the run's log is the envelope's). */
function reduceChildEvent(s: RunViewState, e: EventOf<'subagent_event'>): RunViewState {
  const inner = { ...e.inner, run_id: e.child, seq: e.seq, ts: e.ts } as unknown as RunEvent;
  return updateNested(s, e, (n) => n && { ...n, run: reduceRunEvent(n.run, inner) });
}

const NEXT = {
  accept: 'answered',
  retry: 'failed: run again',
  fallback: "failed: run again on the run's model",
  give_up: 'gave up on',
} as const;

/** A child ends: its end on the nested run, a marker on the parent's timeline with the parent's decision. */
function reduceEnd(s: RunViewState, e: EventOf<'subagent_end'>): RunViewState {
  const next = updateNested(s, e, (n) =>
    n
      ? {
          ...n,
          end: {
            seq: e.seq,
            outcome: e.outcome,
            next: e.next,
            why: e.why,
            reason: e.reason,
            requests: e.requests,
            usd: e.usd,
            inputTokens: e.input_tokens,
            outputTokens: e.output_tokens,
          },
        }
      : n,
  );
  const label =
    e.next === 'accept' ? `sub-agent ${e.child} answered` : `sub-agent ${e.child} ${NEXT[e.next]}`;
  return {
    ...next,
    markers: addMarker(next, {
      seq: e.seq,
      ts: e.ts,
      kind: 'log',
      label,
      detail: e.why,
      iteration: e.iteration,
      level: e.next === 'accept' ? 'info' : e.next === 'give_up' ? 'error' : 'warn',
    }),
    reason: `${turnLabel(e.iteration)}: ${e.why}`,
  };
}

export const VIEW = {
  subagent_start: reduceStart,
  subagent_event: reduceChildEvent,
  subagent_end: reduceEnd,
};
