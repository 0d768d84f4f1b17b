import { z } from 'zod';
import { TaskVerdictSchema } from './events';

/** What a sweep reports: its status, its results table's rows, each run's share of a row, its summary. */

/**
 * `queued`: waiting for the process's worker pool, which runs one sweep at a time. `stopped`:
 * it ended before its last run because its cost cap would have been passed (its message says so).
 */
export const SweepStatusSchema = z.enum(['queued', 'running', 'completed', 'cancelled', 'failed', 'stopped']);
export type SweepStatus = z.infer<typeof SweepStatusSchema>;

/** One row of the results table: one configuration on one scenario, fault plan and vendor. */
export const SweepRowSchema = z.object({
  /** `config|scenario|faultPlan|vendor` (then `|model` and `|promptSet` when the grid has those axes): the cell key runs are grouped by. */
  key: z.string(),
  config: z.string(),
  config_label: z.string(),
  scenario: z.string(),
  fault_plan: z.string(),
  /** The target: a simulated vendor, or a real endpoint's id. */
  vendor: z.string(),
  /** The model axis' value (absent: the grid has no model axis). */
  model: z.string().optional(),
  /** The prompt axis' value, `name v3` (absent: the grid has no prompt axis). */
  prompt_set: z.string().optional(),
  runs: z.number().int(),
  /** Runs whose loop ended complete. */
  completed: z.number().int(),
  completion_rate: z.number(),
  /** 95 % Wilson score interval of the completion rate. */
  completion_ci: z.tuple([z.number(), z.number()]),
  /**
   * Runs whose task_verdict was done (the scenario's own check on the final workspace), of all
   * runs: not how the loop ended. A run the check could not judge counts as not done.
   */
  verdict_rate: z.number(),
  /** 95 % Wilson score interval of the task verdict rate. */
  verdict_ci: z.tuple([z.number(), z.number()]),
  /** Runs the check could not judge (not_checkable, or no task_verdict in the log). */
  unchecked: z.number().int(),
  /**
   * Each scorer of the task verdict (visible tests, hidden tests, each check on the answer), in
   * the order the runs report them: of the row's runs that scored it, how many it passed.
   */
  scorers: z
    .array(z.object({ id: z.string(), passed: z.number().int(), runs: z.number().int(), rate: z.number() }))
    .optional(),
  /**
   * Run time (run clock) over the cell's runs; null when no run's loop completed (or no run
   * finished yet): how fast a run failed is not a run time to read or rank.
   */
  median_ms: z.number().nullable(),
  p95_ms: z.number().nullable(),
  mean_tokens: z.number(),
  mean_usd: z.number(),
  /** Per run: tokens and dollars billed for attempts that failed and were thrown away. */
  wasted_tokens: z.number(),
  wasted_usd: z.number(),
  /** Errors that reached the user (not absorbed by a retry), summed over the runs. */
  errors_seen: z.number().int(),
  /**
   * Per run: what the runs' sub-agents spent (tokens in and out, dollars), apart from mean_tokens and
   * mean_usd, which count the runs' own calls; absent when no run of the row started a sub-agent.
   */
  mean_subagent_tokens: z.number().optional(),
  mean_subagent_usd: z.number().optional(),
});
export type SweepRow = z.infer<typeof SweepRowSchema>;

/** What one run of a sweep contributes to its row. */
export const SweepRunMetricsSchema = z.object({
  job: z.number().int(),
  run_id: z.string(),
  key: z.string(),
  seed: z.number().int(),
  complete: z.boolean(),
  reason: z.string(),
  /** The run's task_verdict; null when its log has none (a run stopped outside the loop). */
  verdict: TaskVerdictSchema.nullable(),
  /** Each scorer of its task verdict, by id: passed, failed, or null (it could not answer). Absent before scorers. */
  scorers: z.record(z.string(), z.boolean().nullable()).optional(),
  duration_ms: z.number(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  usd: z.number(),
  attempts: z.number().int(),
  failed_attempts: z.number().int(),
  wasted_tokens: z.number(),
  wasted_usd: z.number(),
  errors_seen: z.number().int(),
  /**
   * What its sub-agents spent (every child's subagent_end), apart from input_tokens, output_tokens and
   * usd, which are the run's own calls; absent when the run started none.
   */
  subagent_input_tokens: z.number().int().optional(),
  subagent_output_tokens: z.number().int().optional(),
  subagent_usd: z.number().optional(),
});
export type SweepRunMetrics = z.infer<typeof SweepRunMetricsSchema>;

/** A sweep as the list and the progress stream show it. */
export const SweepSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  status: SweepStatusSchema,
  total: z.number().int(),
  done: z.number().int(),
  /** Wall-clock ms since the sweep started (to its end once it ended). */
  elapsed_ms: z.number(),
  /** Where the jobs run: the local worker pool or a BullMQ queue. */
  runner: z.enum(['local', 'bullmq']),
  message: z.string().optional(),
  /**
   * What the sweep's endpoints did, newest last (the last 20): a 429's Retry-After pausing an
   * endpoint (which, for how long, why), each line written where it was decided and stored with
   * the sweep as it comes, so a reload or a restart shows what the live progress did.
   */
  notes: z.array(z.string()).max(50).optional(),
  /**
   * USD spent by the sweep's stored runs (each run's cost added as it is stored, live and in the
   * store alike), and the cap (when the grid sets one).
   */
  spent_usd: z.number().optional(),
  cost_cap_usd: z.number().optional(),
  /**
   * While queued, from the process that queued it: its place in line (1 = next) and the sweep
   * it waits for (the one running now). Absent from a sweep read from the store alone.
   */
  queue: z.object({ position: z.number().int().min(1), waiting_for: z.string() }).optional(),
});
export type SweepSummary = z.infer<typeof SweepSummarySchema>;
