import { z } from 'zod';
import { BudgetsSchema, VendorSchema } from './config';
import { TaskVerdictSchema } from './events';
import { FaultPlanSchema } from './faults';
import { RECOVERY_MECHANISM_IDS, RecoveryMechanismIdSchema } from './mechanism-id';
import { OUTPUT_CAP_MAX, PresetIdSchema, RecoveryOverridesSchema } from './recovery';

/**
 * A sweep grid: scenarios × configurations × fault plans × vendors × seeds, every
 * run on the virtual clock. The same schema is the body of POST /api/sweeps and the CLI's
 * `--grid` file; expanding it (lib/sweeps/expand-grid.ts) gives one seeded job per cell.
 */

const AxisIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'use letters, digits, "-", "_" or "." (it names a row and a CSV cell)');

/** A recovery configuration: a preset, optionally with overrides on top. */
export const SweepConfigurationSchema = z
  .object({
    id: AxisIdSchema,
    label: z.string().max(200).optional(),
    preset: PresetIdSchema,
    recovery: RecoveryOverridesSchema.default({}),
  })
  .strict();
export type SweepConfiguration = z.infer<typeof SweepConfigurationSchema>;

export const SweepFaultPlanSchema = z
  .object({
    id: AxisIdSchema,
    label: z.string().max(200).optional(),
    plan: FaultPlanSchema.default({ rules: [], tools: [] }),
  })
  .strict();
export type SweepFaultPlan = z.infer<typeof SweepFaultPlanSchema>;

/** Mechanisms the on/off axis can switch off: the recovery ones of lib/mechanisms/mechanisms.ts. */
export const SweepMechanismSchema = RecoveryMechanismIdSchema;
export type SweepMechanism = z.infer<typeof SweepMechanismSchema>;

/** Seeds as an inclusive range (`{from: 1, to: 200}`) or a list. */
export const SweepSeedsSchema = z.union([
  z
    .object({
      from: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1),
      to: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1),
    })
    .strict()
    .refine((r) => r.to >= r.from, 'seeds.to must be at least seeds.from'),
  z
    .array(
      z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1),
    )
    .min(1)
    .max(100_000),
]);

/** Sweeps run on simulated vendors only: the virtual clock cannot make real network time jump. */
export const SweepVendorSchema = VendorSchema.extract(['sim-anthropic', 'sim-openai', 'sim-openai-responses']);
export type SweepVendor = z.infer<typeof SweepVendorSchema>;

/** Most jobs one sweep may hold: a 20-config × 1,000-seed grid, well past a useful chart. */
export const MAX_SWEEP_JOBS = 20_000;

export const SweepGridSchema = z
  .object({
    name: z.string().max(200).optional(),
    scenarios: z.array(z.string().min(1).max(100)).min(1).max(20).default(['fix-failing-test']),
    configurations: z.array(SweepConfigurationSchema).min(1).max(20),
    /** Each configuration also runs once with each of these mechanisms switched off. */
    mechanismsOff: z.array(SweepMechanismSchema).max(RECOVERY_MECHANISM_IDS.length).default([]),
    faultPlans: z
      .array(SweepFaultPlanSchema)
      .min(1)
      .max(20)
      .default([{ id: 'none', plan: { rules: [], tools: [] } }]),
    vendors: z.array(SweepVendorSchema).min(1).max(3).default(['sim-anthropic']),
    seeds: SweepSeedsSchema,
    budgets: BudgetsSchema.optional(),
    maxOutputTokens: z.number().int().min(16).max(OUTPUT_CAP_MAX).optional(),
  })
  .strict()
  .superRefine((grid, ctx) => {
    const unique = (ids: string[], path: string): void => {
      const seen = new Set<string>();
      for (const id of ids) {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [path], message: `"${id}" appears twice; ids must be unique` });
        seen.add(id);
      }
    };
    unique(
      grid.configurations.map((c) => c.id),
      'configurations',
    );
    unique(
      grid.faultPlans.map((f) => f.id),
      'faultPlans',
    );
    unique(grid.scenarios, 'scenarios');
    unique(grid.vendors, 'vendors');
    unique(grid.mechanismsOff, 'mechanismsOff');
    const jobs = countSweepJobs(grid);
    if (jobs > MAX_SWEEP_JOBS) {
      ctx.addIssue({ code: 'custom', path: ['seeds'], message: `the grid makes ${jobs} runs; at most ${MAX_SWEEP_JOBS} (use fewer seeds or configurations)` });
    }
  });
export type SweepGrid = z.infer<typeof SweepGridSchema>;
export type SweepGridInput = z.input<typeof SweepGridSchema>;

export function seedList(seeds: SweepGrid['seeds']): number[] {
  if (Array.isArray(seeds)) return seeds;
  return Array.from({ length: seeds.to - seeds.from + 1 }, (_, i) => seeds.from + i);
}

export function countSweepJobs(grid: Pick<SweepGrid, 'scenarios' | 'configurations' | 'mechanismsOff' | 'faultPlans' | 'vendors' | 'seeds'>): number {
  const seeds = Array.isArray(grid.seeds) ? grid.seeds.length : grid.seeds.to - grid.seeds.from + 1;
  const configs = grid.configurations.length * (1 + grid.mechanismsOff.length);
  return grid.scenarios.length * configs * grid.faultPlans.length * grid.vendors.length * seeds;
}

/** `queued`: waiting for the process's worker pool, which runs one sweep at a time. */
export const SweepStatusSchema = z.enum(['queued', 'running', 'completed', 'cancelled', 'failed']);
export type SweepStatus = z.infer<typeof SweepStatusSchema>;

/** One row of the results table: one configuration on one scenario, fault plan and vendor. */
export const SweepRowSchema = z.object({
  /** `config|scenario|faultPlan|vendor`: the cell key runs are grouped by. */
  key: z.string(),
  config: z.string(),
  config_label: z.string(),
  scenario: z.string(),
  fault_plan: z.string(),
  vendor: z.string(),
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
  duration_ms: z.number(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  usd: z.number(),
  attempts: z.number().int(),
  failed_attempts: z.number().int(),
  wasted_tokens: z.number(),
  wasted_usd: z.number(),
  errors_seen: z.number().int(),
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
   * While queued, from the process that queued it: its place in line (1 = next) and the sweep
   * it waits for (the one running now). Absent from a sweep read from the store alone.
   */
  queue: z.object({ position: z.number().int().min(1), waiting_for: z.string() }).optional(),
});
export type SweepSummary = z.infer<typeof SweepSummarySchema>;
