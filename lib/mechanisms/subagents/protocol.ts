import { z } from 'zod';
import { turn } from '@/lib/protocol/event-families/fields';
import { MAX_ATTEMPTS, MAX_RETRIES, MAX_TURNS } from './defaults';

export { ID } from './defaults';

/**
 * What a simulated sub-agent (a child loop the `delegate` tool starts) does wrong (simulated vendors
 * only): `loops`, it reads the same file again and again; `overruns`, it keeps reading one more file
 * and never answers, so it spends its turn budget. `child`: which delegate call of the run it hits
 * (1 for the first, in call order), on every try; absent: every child.
 */
export const SubagentFaultSchema = z.strictObject({
  id: z.string().min(1).max(64),
  enabled: z.boolean().default(true),
  kind: z.enum(['loops', 'overruns']),
  child: z.number().int().min(1).max(100).optional(),
});

/** Its field of the fault plan: `faults.subagents` (absent: nothing). */
export const FAULT_PLAN = { subagents: z.array(SubagentFaultSchema).max(20).optional() };

/** Its config: optional fields of the recovery config's tools group (absent: ./defaults.ts). */
export const TOOLS_CONFIG = {
  /** Offer the model the `delegate` tool: each call starts a child loop (a sub-agent). */
  delegate: z.boolean().optional(),
  /** A child's turn budget. */
  subagentTurns: z.number().int().min(1).max(MAX_TURNS).optional(),
  /** A child's own attempt budget (model requests of any kind), when it does not share the run's. */
  subagentAttempts: z.number().int().min(1).max(MAX_ATTEMPTS).optional(),
  /** A child's requests count in the run's own attempt budget (budgets.maxAttempts) instead of its own. */
  subagentSharesAttempts: z.boolean().optional(),
  /** How many times the parent runs a child again after its vendor failed it (0: never). */
  subagentRetries: z.number().int().min(0).max(MAX_RETRIES).optional(),
  /** The model a child runs on, on the vendor in force (absent: the run's model); when it fails, the child falls back to the run's. */
  subagentModel: z.string().min(1).max(200).optional(),
};

/** As a recorded config is parsed: the same (absent in every log recorded before it). */
export const TOOLS_CONFIG_RECORDED = TOOLS_CONFIG;

const child = {
  ...turn,
  /** The child's id in this run (`c1`, `c2`, … in the order the delegate calls were made). */
  child: z.string().min(1).max(20),
  /** The delegate call that started it. */
  call_id: z.string(),
  /** Which try of the child this is (1, then 2 after a retry or a fallback). */
  try: z.number().int().min(1),
};

/** The parent starts a child loop for a delegate call: what it is given. */
export const SubagentStartEventSchema = z.object({
  ...child,
  event: z.literal('subagent_start'),
  task: z.string(),
  model: z.string(),
  max_turns: z.number().int().min(1),
  /** Its attempt budget: its own, or the run's (shares_attempts). */
  max_attempts: z.number().int().min(1),
  shares_attempts: z.boolean(),
  /** The key its random stream is forked from the run's by (the same run, the same child). */
  seed_key: z.string(),
  why: z.string(),
});

/**
 * One event of a child loop, as the child wrote it (`inner`, without run_id, seq and ts: the
 * envelope's are its place in the run's one log). Its parent turn is `iteration`.
 */
export const SubagentEventSchema = z.object({
  ...child,
  event: z.literal('subagent_event'),
  inner: z.looseObject({ event: z.string(), iteration: z.number().int().min(0).optional() }),
});

/** How a child ended and what the parent does about it, with its reason. */
export const SubagentEndEventSchema = z.object({
  ...child,
  event: z.literal('subagent_end'),
  /** answered: it ended its turn with an answer; budget_spent: turns, cost or attempts ran out; looped: the loop guard halted it; vendor_failed: its model calls failed; stopped: anything else. */
  outcome: z.enum(['answered', 'budget_spent', 'looped', 'vendor_failed', 'stopped']),
  /** The child's terminate reason and message. */
  reason: z.string(),
  message: z.string().optional(),
  model: z.string(),
  /** Its model requests (the loop's attempts, its model_request events; an SDK's own resends are the run's sdk_retry events), and every child's of this run so far, this one's included. */
  requests: z.number().int().min(0),
  children_requests: z.number().int().min(0),
  usd: z.number().min(0),
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
  /** accept: its answer is the call's result; retry: it runs again; fallback: it runs again on the run's model; give_up: the call's result says it did not finish. */
  next: z.enum(['accept', 'retry', 'fallback', 'give_up']),
  why: z.string(),
});

/** The events this mechanism writes. */
export const EVENTS = [SubagentStartEventSchema, SubagentEventSchema, SubagentEndEventSchema] as const;
