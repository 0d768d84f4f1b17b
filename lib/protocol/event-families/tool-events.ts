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

/**
 * The loop's tool step put several calls of one turn into a group: run together (each tool
 * declares whether it may run beside others, at most `tools.maxParallel` at once) or one at
 * a time. Written by the tool step before the group runs.
 */
export const ToolBatchEventSchema = z.object({
  ...turn,
  event: z.literal('tool_batch'),
  /** The group's calls, in the order the model made them (and their results go back in). */
  call_ids: z.array(z.string()).min(1),
  tools: z.array(z.string()).min(1),
  /** true: the calls run at once; false: this call runs alone (a tool that must not run beside others, or the limit is 1). */
  parallel: z.boolean(),
  /** The per-turn limit in force (`tools.maxParallel`). */
  limit: z.number().int().min(1),
  /** The decision in words, written where it was made. */
  why: z.string(),
});

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
