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
