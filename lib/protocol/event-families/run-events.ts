import { z } from 'zod';
import { MODULE_TERMINATES } from '@/lib/mechanisms/modules/about';
import { ClockKindSchema, RunConfigSchema, VerdictTestsSchema } from '../config';
import { FaultPlanSchema } from '../faults';
import { ScorerResultSchema } from '../task-folder';
import { RecoveryConfigSchema } from '../recovery';
import { base, turn } from './fields';

/**
 * The run's own events: how it starts, its turns, controls from outside, its title, the task
 * verdict, log lines, storage trouble, and the terminate that ends every log.
 */

export const TerminateReasonSchema = z.enum([
  'end_turn',
  'max_iterations',
  'cost_budget',
  'aborted',
  'abandoned',
  'model_error',
  'retries_exhausted',
  'tool_halt',
  'refusal',
  'max_tokens',
  'internal_error',
  'imported',
  'context_overflow',
  /** The run used its run-time budget (budgets.maxRunMs of run clock). */
  'run_time_budget',
  /** The run made budgets.maxAttempts model requests (foreground and background). */
  'attempt_budget',
  /** On the virtual clock: no timer left and nothing running, so nothing could ever wake the run. */
  'deadlock',
  /** The server process stopped while the run was in flight; found and closed at the next start. */
  'server_restart',
  'partial_response',
  /**
   * The machine was too busy to do the run's work: a check got too little CPU to finish or reach
   * its CPU-time limit before its wall-clock backstop, on every try. Not the model's doing.
   */
  'host_overloaded',
  // And the reasons mechanism modules add (lib/mechanisms/modules/about.ts).
  ...(Object.keys(MODULE_TERMINATES) as (keyof typeof MODULE_TERMINATES)[]),
]);
export type TerminateReason = z.infer<typeof TerminateReasonSchema>;

/** The task verdict: the scenario's check on the final workspace, apart from how the loop ended. */
export const TaskVerdictSchema = z.enum(['done', 'not_done', 'not_checkable']);
export type TaskVerdict = z.infer<typeof TaskVerdictSchema>;

export const RunStartEventSchema = z.object({
  ...base,
  event: z.literal('run_start'),
  config: RunConfigSchema,
  recovery: RecoveryConfigSchema,
  scenario: z.object({ id: z.string(), title: z.string(), task: z.string() }),
  tools: z.array(z.string()),
  vendor: z.string(),
  model: z.string(),
  clock: ClockKindSchema,
  time_scale: z.number(),
});

export const IterationStartEventSchema = z.object({ ...turn, event: z.literal('iteration_start') });

export const ControlEventSchema = z.object({
  ...base,
  event: z.literal('control'),
  iteration: z.number().int().min(0).optional(),
  action: z.enum(['abort', 'set_faults', 'pause', 'resume', 'compact']),
  detail: z.string().optional(),
  faults: FaultPlanSchema.optional(),
});

/**
 * A run the server was running when its process stopped, taken up again by the next server
 * (lib/server/resume-runs.ts): the stored log was re-executed from the run's config and seed on
 * the virtual clock, each regenerated event found equal to the stored one, and the run goes on
 * after them. Written once, right after the last stored event; what follows is the run as it
 * would have gone uninterrupted.
 */
export const ResumedAfterRestartEventSchema = z.object({
  ...base,
  event: z.literal('resumed_after_restart'),
  iteration: z.number().int().min(0).optional(),
  /** The turn the run goes on in: the last turn the stored log had started (its last checkpoint). */
  at_turn: z.number().int().min(0),
  /** How many stored events were re-executed and found equal (seq 0 to replayed - 1). */
  replayed: z.number().int().min(0),
  /** Why, in a sentence: the server restarted, and how the run was brought back. */
  reason: z.string(),
  /** What happens next, in a sentence. */
  next: z.string(),
});

export const RunTitleEventSchema = z.object({
  ...base,
  event: z.literal('run_title'),
  iteration: z.number().int().min(0).optional(),
  /** A short title from a background call after the work is done. */
  title: z.string(),
});

export const TaskVerdictEventSchema = z.object({
  ...base,
  event: z.literal('task_verdict'),
  iteration: z.number().int().min(0).optional(),
  /**
   * Did the work get done, apart from how the loop ended: the scenario's own check run on the
   * final workspace. not_checkable: the check could not give an answer (stopped by its sandbox).
   */
  verdict: TaskVerdictSchema,
  /** What the check ran (e.g. "test/slugify.test.js"). */
  check: z.string(),
  /** The check's report, or why there is no answer. */
  detail: z.string(),
  /**
   * Which copies of the scenario's test files the check ran against the final workspace:
   * `shipped` (as the scenario shipped them, so the model's edits to its tests do not count) or
   * `workspace` (the workspace's own, as run_check runs them). Absent in logs written before.
   */
  tests_run: VerdictTestsSchema.optional(),
  /** The scenario's test files the model changed or deleted during the run; empty when it left them alone. Absent in logs written before. */
  tests_edited: z.array(z.string()).optional(),
  /**
   * Shipped tests, by name, that did not run (code under test kept them from registering, or
   * registered its own under their names); any makes the task not done. Set when the verdict
   * ran the shipped tests; absent otherwise and in logs written before.
   */
  tests_missing: z.array(z.string()).optional(),
  /** How many hidden tests (inputs the model never saw) the verdict ran against the final code. Set when they ran. */
  hidden_tests: z.number().int().min(0).optional(),
  /** The hidden tests, by name, that failed or did not run; any makes the task not done. Set when they ran. */
  hidden_failed: z.array(z.string()).optional(),
  /**
   * The verdict as the set of its scorers' results, each with its reason: the visible tests, the
   * hidden tests (when the task has any) and each check on the final answer the task names; the
   * task is done when every one passed. Absent in logs written before.
   */
  scorers: z.array(ScorerResultSchema).optional(),
});

export const LogEventSchema = z.object({
  ...base,
  event: z.literal('log'),
  iteration: z.number().int().min(0).optional(),
  level: z.enum(['info', 'warn', 'error']),
  message: z.string(),
  /** The control message the note answers: `swap`, a swap asked for and not made (the message says why). */
  about: z.enum(['swap']).optional(),
});

export const StorageErrorEventSchema = z.object({
  ...base,
  event: z.literal('storage_error'),
  iteration: z.number().int().min(0).optional(),
  /** The type of the event the store could not encode; this event takes its seq. */
  replaces: z.string(),
  /** Why it could not be stored, and what was lost. */
  message: z.string(),
});

export const TerminateEventSchema = z.object({
  ...base,
  event: z.literal('terminate'),
  iteration: z.number().int().min(0).optional(),
  reason: TerminateReasonSchema,
  complete: z.boolean(),
  message: z.string().optional(),
  usd_so_far: z.number(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
});
