import { z } from 'zod';
import { BreakpointSchema, DeciderSchema } from '../pause';
import { base } from './fields';

/**
 * A run held by hand (lib/protocol/pause.ts): where it paused and why, who let it go on and how,
 * and each decision on a tool call that waited for approval.
 */

export const PausedEventSchema = z.object({
  ...base,
  event: z.literal('paused'),
  iteration: z.number().int().min(0).optional(),
  /** What stopped it: a breakpoint, a step (one event), a pause asked for, a call that needs approval. */
  trigger: z.enum(['breakpoint', 'step', 'request', 'approval']),
  /** The breakpoint that matched (trigger `breakpoint`). */
  breakpoint: BreakpointSchema.optional(),
  /** The event that set the pause off, by seq (an event breakpoint, a step, a cost over the line). */
  after_seq: z.number().int().min(0).optional(),
  /** Why, in a sentence. */
  reason: z.string(),
  /** Where the run stands still: "before request 3 goes to the vendor", "before a wait of 1.5 s". */
  at: z.string(),
  /** Whether the run clock stands still (a pause), or runs on (an approval with a timeout). */
  clock: z.enum(['held', 'running']),
  /** What happens next: what step, continue and cancel do, or what a timeout will do. */
  next: z.string(),
  /** The tool call waiting for approval, its arguments as the model wrote them. */
  call: z.object({ id: z.string(), tool: z.string(), args: z.unknown() }).optional(),
  /** An approval's timeout in run-clock ms (the call is then denied); absent: it waits for a decision. */
  timeout_ms: z.number().int().min(1).optional(),
});

export const ResumedEventSchema = z.object({
  ...base,
  event: z.literal('resumed'),
  iteration: z.number().int().min(0).optional(),
  /** step: on to the next event, then paused again; continue: on until a breakpoint; cancel: the run ends. */
  action: z.enum(['step', 'continue', 'cancel']),
  by: DeciderSchema,
  /** What happens now, in a sentence. */
  next: z.string(),
});

export const ToolApprovalEventSchema = z.object({
  ...base,
  event: z.literal('tool_approval'),
  iteration: z.number().int().min(0),
  call_id: z.string(),
  tool: z.string(),
  decision: z.enum(['approved', 'denied', 'edited']),
  by: DeciderSchema,
  /** Why, as the decider gave it (or the timeout's own words). */
  reason: z.string(),
  /** The arguments as the model wrote them. */
  args: z.unknown(),
  /** edited: the arguments the call runs with instead. */
  edited_args: z.record(z.string(), z.unknown()).optional(),
  /** denied: the tool result the model receives, an error it recovers from like any tool failure. */
  message: z.string().optional(),
  /** What happens next, in a sentence. */
  next: z.string(),
});
