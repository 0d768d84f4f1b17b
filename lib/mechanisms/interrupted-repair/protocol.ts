import { z } from 'zod';
import { turn } from '@/lib/protocol/event-families/fields';
import { TOOLS_BEFORE } from './defaults';

export { ID } from './defaults';

/** Its config: a field of the recovery config's tools group. */
export const TOOLS_CONFIG = {
  /**
   * A turn cut between a tool call and its result leaves the call dangling; with this on, each
   * dangling call gets a synthetic error result before the next request (off: the history goes
   * as it is, and a strict vendor answers 400).
   */
  repairInterrupted: z.boolean(),
};

/** As a recorded config is parsed: a log recorded before the repair never met a dangling call. */
export const TOOLS_CONFIG_RECORDED = {
  repairInterrupted: TOOLS_CONFIG.repairInterrupted.default(TOOLS_BEFORE.repairInterrupted),
};

/**
 * A turn was cut between its tool calls and their results (a call interrupted: its result never
 * came back). Written by the loop's tool step before the next request: with the repair on, each
 * dangling call gets a synthetic error result; with it off, the calls go unanswered and a strict
 * vendor rejects the request with a 400.
 */
export const DanglingCallsEventSchema = z.object({
  ...turn,
  event: z.literal('dangling_calls'),
  calls: z.array(z.object({ call_id: z.string(), tool: z.string() })).min(1),
  /** true: a synthetic error result was added for each; false: the history goes as it is. */
  repaired: z.boolean(),
  /** What happens next: the next request carries a result for every call / carries the calls unanswered. */
  next: z.enum(['synthetic_results', 'sent_unanswered']),
  /** The decision in words, written where it was made. */
  why: z.string(),
});

/** The events this mechanism writes. */
export const EVENTS = [DanglingCallsEventSchema] as const;
