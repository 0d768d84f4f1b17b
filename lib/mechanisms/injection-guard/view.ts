import type { EventOf } from '@/lib/protocol';
import type { RunViewState } from '@/lib/run-view/run-view-state';
import { addMarker, turnLabel } from '@/lib/run-view/turn-updates';

type Guarded = EventOf<
  | 'injection_planted'
  | 'tool_output_marked'
  | 'injection_flagged'
  | 'tool_call_refused'
  | 'injection_followed'
>;

const LABEL = {
  injection_planted: () => 'instruction planted in tool output',
  tool_output_marked: () => 'tool output marked as data',
  injection_flagged: () => 'instruction-like text removed',
  tool_call_refused: (e: Guarded) => `${e.tool} refused: not a tool the task needs`,
  injection_followed: (e: Guarded) =>
    `followed an injected instruction: ${e.tool} ${e.event === 'injection_followed' && e.next === 'refused' ? 'refused' : 'ran'}`,
} as const;

/** A guard event on the timeline with its why; a followed instruction that ran is an error, and the run's status line says it. */
function reduceGuard(s: RunViewState, e: Guarded): RunViewState {
  const label = LABEL[e.event](e);
  const ran = e.event === 'injection_followed' && e.next === 'runs';
  return {
    ...s,
    markers: addMarker(s, {
      seq: e.seq,
      ts: e.ts,
      kind: 'log',
      label,
      detail: e.why,
      iteration: e.iteration,
      level: ran
        ? 'error'
        : e.event === 'injection_planted' || e.event === 'injection_followed'
          ? 'warn'
          : 'info',
    }),
    ...(e.event === 'injection_followed' ? { reason: `${turnLabel(e.iteration)}: ${label}` } : {}),
  };
}

export const VIEW = {
  injection_planted: reduceGuard,
  tool_output_marked: reduceGuard,
  injection_flagged: reduceGuard,
  tool_call_refused: reduceGuard,
  injection_followed: reduceGuard,
};
