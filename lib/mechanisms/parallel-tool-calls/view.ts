import type { EventOf } from '@/lib/protocol';
import { addCallMark } from '@/lib/run-view/fold-turn-events';
import type { RunViewState } from '@/lib/run-view/run-view-state';
import { updateTurn } from '@/lib/run-view/turn-updates';
import { ID } from './defaults';

/** The run view of a tool_batch event: a mark on each call of the group (a pill and a bar glyph when they ran at once). */
export function reduceToolBatch(s: RunViewState, e: EventOf<'tool_batch'>): RunViewState {
  const others = e.call_ids.length - 1;
  return {
    ...s,
    turns: updateTurn(s, e.iteration, e.ts, (t) =>
      addCallMark(t, {
        mechanism: ID,
        seq: e.seq,
        ts: e.ts,
        callIds: e.call_ids,
        why: e.why,
        ...(e.parallel
          ? {
              pill: {
                tone: 'neutral' as const,
                text: `∥ ran at once with ${others} other${others === 1 ? '' : 's'}`,
                testId: 'parallel',
              },
              // Its bar overlaps the others' on the time axis.
              bar: {
                glyph: '∥',
                note: `ran at once with ${others} other call${others === 1 ? '' : 's'}`,
                data: 'parallel',
              },
            }
          : {}),
        whyLine: 'before',
      }),
    ),
  };
}

export const VIEW = { tool_batch: reduceToolBatch };
