import { z } from 'zod';
import {
  BudgetsSchema,
  isSimulated,
  PromptSetRefSchema,
  STRATEGY_NOT_FROM_WEB,
  StrategyRefSchema,
  TASK_DIR_NOT_FROM_WEB,
  VendorSchema,
} from './config';
import { TaskVerdictSchema } from './events';
import { FaultPlanSchema } from './faults';
import { RECOVERY_MECHANISM_IDS, RecoveryMechanismIdSchema } from './mechanism-id';
import { OUTPUT_CAP_MAX, PresetIdSchema, RecoveryOverridesSchema } from './recovery';
import { ApiKeySchema } from './http/api-key';
import { RetryPolicySchema } from './retry-policy';
import { SweepGridAssertSchema } from './sweep-analysis';

/**
 * A sweep grid: scenarios × configurations × fault plans × targets (simulated vendors and real
 * endpoints) × models × prompt-set versions × seeds. Runs on a simulated vendor use the
 * virtual clock; runs on a real endpoint the real clock. The same schema is the body of POST
 * /api/sweeps and the CLI's `--grid` file; expanding it (lib/sweeps/expand-grid.ts) gives one
 * seeded job per cell.
 */

const AxisIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
    'use letters, digits, "-", "_" or "." (it names a row and a CSV cell)',
  );

/** A recovery configuration: a preset, optionally with overrides on top. */
export const SweepConfigurationSchema = z
  .object({
    id: AxisIdSchema,
    label: z.string().max(200).optional(),
    preset: PresetIdSchema,
    recovery: RecoveryOverridesSchema.default({}),
    /**
     * A strategy of one's own on top of the preset (the sweep CLI only): the file, pinned by its
     * sha256 when the sweep starts (lib/runtime/load-strategy.ts).
     */
    strategy: StrategyRefSchema.partial({ sha256: true }).optional(),
  })
  .strict();
export type SweepConfiguration = z.infer<typeof SweepConfigurationSchema>;

/**
 * A retry policy the policy axis compares: a preset's own (`preset`: its policy, whatever the
 * configuration's preset), or one written out (`policy`). Each configuration runs once with each,
 * as a row of its own (`<configuration>-policy-<id>`).
 */
export const SweepPolicySchema = z
  .object({
    id: AxisIdSchema,
    label: z.string().max(200).optional(),
    preset: PresetIdSchema.optional(),
    policy: RetryPolicySchema.optional(),
  })
  .strict()
  .refine((p) => (p.preset === undefined) !== (p.policy === undefined), {
    message:
      'give a policy either as a preset name ("preset": "s11") or written out ("policy": {…}), not both',
  });
export type SweepPolicy = z.infer<typeof SweepPolicySchema>;

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

/** The simulated vendors a sweep runs on the virtual clock (the sweep form's choice, a subset of the vendor table). */
export const SweepVendorSchema = z.enum(['sim-anthropic', 'sim-openai', 'sim-openai-responses']);
export type SweepVendor = z.infer<typeof SweepVendorSchema>;

/** The real vendors a sweep endpoint may speak (their runs use the real clock): every real row of the vendor table. */
export const SweepEndpointVendorSchema = VendorSchema.refine((vendor) => !isSimulated(vendor), {
  error: 'a sweep endpoint is a real vendor; simulated vendors go in vendors',
});

/**
 * A real endpoint as a sweep target: a vendor, optionally at a base URL (the same rules as a
 * run's: a URL the server's environment does not name needs a key sent with the sweep, and a
 * loopback or private address must be allowed by the environment), and its limits. One limiter
 * per endpoint holds every run of the sweep to them, on every worker.
 */
export const SweepEndpointSchema = z
  .object({
    id: AxisIdSchema,
    vendor: SweepEndpointVendorSchema,
    baseUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .max(2000)
      .optional(),
    /** Where its key comes from: the server's environment, or `apiKeys[id]` sent with the sweep (kept in memory, never stored). */
    keySource: z.enum(['env', 'request']).default('env'),
    /** Requests a minute to this endpoint, over every run and worker of the sweep; absent: no limit. */
    requestsPerMin: z.number().int().min(1).max(100_000).optional(),
    /** Tokens a minute (each request's prompt estimate plus its max output, as OpenAI counts them); absent: no limit. */
    tokensPerMin: z.number().int().min(1).max(100_000_000).optional(),
  })
  .strict();
export type SweepEndpoint = z.infer<typeof SweepEndpointSchema>;

/**
 * A task folder on the scenario axis (the sweep CLI only; lib/tools/tasks): its path (relative to
 * the directory the CLI runs in), or the path with the sha256 of its files and its id, which the
 * sweep CLI pins as the sweep starts. A list of them is a dataset.
 */
export const SweepTaskSchema = z.union([
  z
    .string()
    .min(1)
    .max(500)
    .transform((dir): { dir: string; sha256?: string; id?: string } => ({ dir })),
  z
    .object({
      dir: z.string().min(1).max(500),
      sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/, 'the sha256 of the folder: 64 lower-case hex digits')
        .optional(),
      id: z.string().min(1).max(64).optional(),
    })
    .strict(),
]);
export type SweepTask = z.infer<typeof SweepTaskSchema>;

/** A model id for the model axis (a simulated vendor's own, or what a real endpoint names). */
const ModelIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@-]*$/, 'a model id: letters, digits and . _ : / @ -');

/** Most jobs one sweep may hold: a 20-config × 1,000-seed grid, well past a useful chart. */
export const MAX_SWEEP_JOBS = 20_000;

const SweepGridObject = z
  .object({
    name: z.string().max(200).optional(),
    scenarios: z.array(z.string().min(1).max(100)).max(20).default(['fix-failing-test']),
    /** Task folders beside the scenarios on the scenario axis (the sweep CLI only): a dataset. */
    tasks: z.array(SweepTaskSchema).min(1).max(50).optional(),
    configurations: z.array(SweepConfigurationSchema).min(1).max(20),
    /** The policy axis: each configuration runs once with each of these retry policies (absent: its own). */
    policies: z.array(SweepPolicySchema).min(1).max(10).optional(),
    /** Each configuration also runs once with each of these mechanisms switched off. */
    mechanismsOff: z.array(SweepMechanismSchema).max(RECOVERY_MECHANISM_IDS.length).default([]),
    faultPlans: z
      .array(SweepFaultPlanSchema)
      .min(1)
      .max(20)
      .default([{ id: 'none', plan: { rules: [], tools: [] } }]),
    /** Simulated vendors (empty when the sweep targets real endpoints only). */
    vendors: z.array(SweepVendorSchema).max(3).default(['sim-anthropic']),
    /** Real endpoints, each a target beside the simulated vendors. */
    endpoints: z.array(SweepEndpointSchema).max(8).default([]),
    /** The model axis: every target runs each of these (absent: each target's default model). */
    models: z.array(ModelIdSchema).min(1).max(10).optional(),
    /** The prompt axis: saved prompt-set versions (system prompt, task, tool descriptions); absent: the built-in prompts. */
    promptSets: z.array(PromptSetRefSchema).min(1).max(10).optional(),
    seeds: SweepSeedsSchema,
    budgets: BudgetsSchema.optional(),
    maxOutputTokens: z.number().int().min(16).max(OUTPUT_CAP_MAX).optional(),
    /**
     * A hard cap on what the whole sweep may spend, in USD: a run starts only while what was spent
     * plus every started run's worst case (lib/sweeps/cost-cap.ts) stays within it; else the sweep stops.
     */
    costCapUsd: z.number().positive().max(100_000).optional(),
    /** Real-endpoint runs only: wall time per unit of run time (their waits, the limiters' minutes and a Retry-After's pause); 1 for a real vendor. */
    timeScale: z.number().min(0.001).max(1).default(1),
    /**
     * Serve each real-endpoint run from the cassette an earlier sweep recorded for the same job
     * (`<that sweep id>-<job index>`), instead of the endpoint: a rerun that costs nothing.
     */
    replayFrom: z.string().min(1).max(100).optional(),
    /** Gates for CI: `npm run sweep` exits non-zero when a row fails one (lib/protocol/sweep-assert.ts). */
    assert: z.array(SweepGridAssertSchema).min(1).max(50).optional(),
    /**
     * A re-run of what failed in sweep `of` (lib/sweeps/rerun-failed.ts): only these jobs of the
     * grid run, each under its index in the full grid (so `replayFrom` finds its recording), with
     * the reason it was chosen.
     */
    rerun: z
      .object({
        of: z.string().min(1).max(100),
        jobs: z
          .array(z.object({ job: z.number().int().min(0), reason: z.string().min(1).max(500) }).strict())
          .min(1)
          .max(MAX_SWEEP_JOBS),
      })
      .strict()
      .optional(),
  })
  .strict();

/** Every check across fields, for the grid and for the request that carries one. */
function checkGrid(grid: z.infer<typeof SweepGridObject>, ctx: z.RefinementCtx): void {
  const unique = (ids: string[], path: string): void => {
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id))
        ctx.addIssue({ code: 'custom', path: [path], message: `"${id}" appears twice; ids must be unique` });
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
  if (grid.scenarios.length + (grid.tasks?.length ?? 0) === 0)
    ctx.addIssue({
      code: 'custom',
      path: ['scenarios'],
      message: 'no scenario: name at least one scenario, or a task folder in tasks',
    });
  unique(grid.vendors, 'vendors');
  unique(grid.mechanismsOff, 'mechanismsOff');
  unique(
    grid.endpoints.map((e) => e.id),
    'endpoints',
  );
  unique(grid.models ?? [], 'models');
  unique(
    (grid.policies ?? []).map((p) => p.id),
    'policies',
  );
  unique(
    (grid.promptSets ?? []).map((p) => `${p.name} v${p.version}`),
    'promptSets',
  );
  const targets = new Set<string>(grid.vendors);
  for (const e of grid.endpoints) {
    if (targets.has(e.id))
      ctx.addIssue({
        code: 'custom',
        path: ['endpoints'],
        message: `"${e.id}" names a vendor too; an endpoint id must differ from the vendors`,
      });
  }
  if (grid.vendors.length + grid.endpoints.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['vendors'],
      message: 'no target: give at least one simulated vendor or one endpoint',
    });
  }
  const full = countSweepJobs({ ...grid, rerun: undefined });
  const outside = (grid.rerun?.jobs ?? []).filter((j) => j.job >= full);
  if (outside.length > 0)
    ctx.addIssue({
      code: 'custom',
      path: ['rerun', 'jobs'],
      message: `job ${outside[0]!.job} is not in the grid, which makes ${full} runs (0 to ${full - 1})`,
    });
  unique(
    (grid.rerun?.jobs ?? []).map((j) => String(j.job)),
    'rerun',
  );
  const jobs = countSweepJobs(grid);
  if (jobs > MAX_SWEEP_JOBS) {
    ctx.addIssue({
      code: 'custom',
      path: ['seeds'],
      message: `the grid makes ${jobs} runs; at most ${MAX_SWEEP_JOBS} (use fewer seeds or configurations)`,
    });
  }
}

export const SweepGridSchema = SweepGridObject.superRefine(checkGrid);
export type SweepGrid = z.infer<typeof SweepGridSchema>;

/**
 * POST /api/sweeps: the grid, and keys for the endpoints whose keySource is "request", by
 * endpoint id. The keys are held in the server's memory for this sweep only: never in its
 * row, a run's config, an event, a queued job or a response.
 */
export const CreateSweepRequestSchema = SweepGridObject.extend({
  apiKeys: z.record(AxisIdSchema, ApiKeySchema).optional(),
})
  .strict()
  .superRefine(checkGrid)
  .superRefine((request, ctx) =>
    request.configurations.forEach((c, i) => {
      if (c.strategy)
        ctx.addIssue({
          code: 'custom',
          path: ['configurations', i, 'strategy'],
          message: STRATEGY_NOT_FROM_WEB,
        });
    }),
  )
  .superRefine((request, ctx) => {
    if (request.tasks) ctx.addIssue({ code: 'custom', path: ['tasks'], message: TASK_DIR_NOT_FROM_WEB });
  });
export type CreateSweepRequest = z.infer<typeof CreateSweepRequestSchema>;
export type CreateSweepRequestInput = z.input<typeof CreateSweepRequestSchema>;
export type SweepGridInput = z.input<typeof SweepGridSchema>;

export function seedList(seeds: SweepGrid['seeds']): number[] {
  if (Array.isArray(seeds)) return seeds;
  return Array.from({ length: seeds.to - seeds.from + 1 }, (_, i) => seeds.from + i);
}

export function countSweepJobs(
  grid: Pick<
    SweepGrid,
    'scenarios' | 'configurations' | 'mechanismsOff' | 'faultPlans' | 'vendors' | 'seeds'
  > &
    Partial<Pick<SweepGrid, 'endpoints' | 'models' | 'promptSets' | 'policies' | 'tasks' | 'rerun'>>,
): number {
  // A re-run runs only the jobs it names.
  if (grid.rerun) return grid.rerun.jobs.length;
  const seeds = Array.isArray(grid.seeds) ? grid.seeds.length : grid.seeds.to - grid.seeds.from + 1;
  const configs = grid.configurations.length * (grid.policies?.length ?? 1) * (1 + grid.mechanismsOff.length);
  const targets = grid.vendors.length + (grid.endpoints?.length ?? 0);
  const models = grid.models?.length ?? 1;
  const prompts = grid.promptSets?.length ?? 1;
  return (
    (grid.scenarios.length + (grid.tasks?.length ?? 0)) *
    configs *
    grid.faultPlans.length *
    targets *
    models *
    prompts *
    seeds
  );
}

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
