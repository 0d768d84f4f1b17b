import type { RecoveryConfig, ToolCallPart } from '@/lib/protocol';
import { defineMechanism } from '@/lib/engine/mechanism-port';
import { ID } from './defaults';

/** What a dangling call's synthetic result says to the model. */
export function interruptedResult(call: ToolCallPart): string {
  return `Error: ${call.name} was interrupted before it returned a result, so what it did is unknown. Call it again if it is still needed.`;
}

/**
 * The interrupted tool-call repair on the mechanism port (after the tool calls): a call whose
 * result never came back is dangling; with `tools.repairInterrupted` it gets a synthetic error
 * result, off it goes unanswered (a strict vendor then answers 400). Either way the decision is
 * a dangling_calls event.
 */
export const ENGINE = defineMechanism<Pick<RecoveryConfig['tools'], 'repairInterrupted'>>({
  id: ID,
  configOf: (recovery) => ({ repairInterrupted: recovery.tools.repairInterrupted }),
  create: () => ({
    afterToolCalls(ctx, { dangling }) {
      if (dangling.length === 0) return undefined;
      const repaired = ctx.config.repairInterrupted;
      const names = dangling.map((c) => c.name).join(', ');
      ctx.emit({
        event: 'dangling_calls',
        iteration: ctx.iteration,
        calls: dangling.map((c) => ({ call_id: c.id, tool: c.name })),
        repaired,
        next: repaired ? 'synthetic_results' : 'sent_unanswered',
        why: repaired
          ? `the turn was cut before ${names} returned: each dangling call gets a synthetic error result, so the next request answers every call`
          : `the turn was cut before ${names} returned and the repair is off: the next request carries the call${dangling.length === 1 ? '' : 's'} unanswered, which a strict vendor rejects with a 400`,
      });
      if (!repaired) return { kind: 'leave' };
      return {
        kind: 'answer',
        results: dangling.map((call) => ({
          type: 'tool_result' as const,
          callId: call.id,
          content: interruptedResult(call),
          isError: true,
        })),
      };
    },
  }),
});
