import type { EventOf } from '@/lib/protocol';
import { addCallMark } from '@/lib/run-view/fold-turn-events';
import type { RunViewState } from '@/lib/run-view/run-view-state';
import { turnLabel, updateTurn } from '@/lib/run-view/turn-updates';
import { ID } from './defaults';

/** The run view of a dangling_calls event: a mark on each dangling call, and the run's status line. */
export function reduceDangling(s: RunViewState, e: EventOf<'dangling_calls'>): RunViewState {
  return {
    ...s,
    turns: updateTurn(s, e.iteration, e.ts, (t) =>
      addCallMark(t, {
        mechanism: ID,
        seq: e.seq,
        ts: e.ts,
        callIds: e.calls.map((c) => c.call_id),
        why: e.why,
        pill: {
          tone: e.repaired ? 'compact' : 'fail',
          text: e.repaired ? 'no result: answered with a synthetic error' : 'no result: sent unanswered',
          testId: 'dangling',
        },
        whyLine: 'after',
      }),
    ),
    reason: `${turnLabel(e.iteration)}: ${e.repaired ? 'interrupted calls answered with synthetic errors' : 'interrupted calls sent unanswered'}`,
  };
}

export const VIEW = { dangling_calls: reduceDangling };
