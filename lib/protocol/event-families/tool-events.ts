import { z } from 'zod';
import { turn } from './fields';

/** Tool execution: a call starting, its result, and the executor's guards. */

export const ToolCallStatusSchema = z.enum([
  'ok',
  'error',
  'invalid_args',
  'unknown_tool',
  'timeout',
  'short_circuit',
  'blocked',
  'disabled',
  'refused_truncated',
  'rate_limited',
  'interrupted',
]);
export type ToolCallStatus = z.infer<typeof ToolCallStatusSchema>;

export const ToolStartEventSchema = z.object({
  ...turn,
  event: z.literal('tool_start'),
  call_id: z.string(),
  tool: z.string(),
  args: z.unknown(),
});

export const ToolCallEventSchema = z.object({
  ...turn,
  event: z.literal('tool_call'),
  call_id: z.string().optional(),
  tool: z.string(),
  args: z.unknown(),
  result: z.string().optional(),
  result_chars: z.number().int(),
  is_error: z.boolean(),
  latency_ms: z.number(),
  status: ToolCallStatusSchema.optional(),
  truncated_chars: z.number().int().optional(),
  /** The safe executor's failure budget left for this tool after the call. */
  budget_left: z.number().int().optional(),
  /** The repair ladder's rungs that changed the arguments before the call ran (`args` is then what ran). */
  repaired: z.array(z.enum(['json', 'coerce'])).optional(),
});

export const ToolGuardEventSchema = z.object({
  ...turn,
  event: z.literal('tool_guard'),
  tool: z.string(),
  kind: z.enum(['warning', 'blocked', 'short_circuit', 'disabled', 'halt', 'rate_limited']),
  reason: z.string(),
  /** What happens next, as the executor decided it (a refused check: not run, and when the next may run). */
  next: z.string().optional(),
  consecutive_failures: z.number().int().optional(),
  budget_left: z.number().int().optional(),
});

/** A rung of the argument repair ladder: `json` repairs the text, `coerce` fits values to the tool's schema. */
export const ArgRepairRungSchema = z.enum(['json', 'coerce']);
export type ArgRepairRung = z.infer<typeof ArgRepairRungSchema>;

/**
 * One rung of the argument repair ladder changed a call's arguments, written by the executor
 * that repaired them: what was wrong, what it changed, and what happens next.
 */
export const ArgRepairEventSchema = z.object({
  ...turn,
  event: z.literal('arg_repair'),
  call_id: z.string(),
  tool: z.string(),
  rung: ArgRepairRungSchema,
  /** What the rung changed, one entry each ("trailing comma removed", "offset: \"7\" → 7"). */
  changes: z.array(z.string()).min(1),
  /** The arguments before and after the rung, as JSON text. */
  before: z.string(),
  after: z.string(),
  /** coerce: the next rung takes the result; run: the call goes on with it; reask: it still does not fit, the model gets the specific error. */
  next: z.enum(['coerce', 'run', 'reask']),
  /** The decision in words, written where it was made. */
  why: z.string(),
});
