import { z } from 'zod';
import { BudgetsSchema, PromptSetRefSchema, STRATEGY_NOT_FROM_WEB, TASK_DIR_NOT_FROM_WEB } from './config';
import { RECOVERY_MECHANISM_IDS } from './mechanism-id';
import { OUTPUT_CAP_MAX } from './recovery';
import { ApiKeySchema } from './http/api-key';
import { SweepGridAssertSchema } from './sweep-analysis';
import {
  SweepAxisIdSchema,
  SweepConfigurationSchema,
  SweepPolicySchema,
  SweepFaultPlanSchema,
  SweepMechanismSchema,
  SweepSeedsSchema,
  SweepVendorSchema,
  SweepEndpointSchema,
  SweepTaskSchema,
  SweepModelIdSchema,
} from './sweep-axes';

/**
 * A sweep grid: scenarios × configurations × fault plans × targets (simulated vendors and real
 * endpoints) × models × prompt-set versions × seeds. Runs on a simulated vendor use the
 * virtual clock; runs on a real endpoint the real clock. The same schema is the body of POST
 * /api/sweeps and the CLI's `--grid` file; expanding it (lib/sweeps/expand-grid.ts) gives one
 * seeded job per cell. Each axis's values are in ./sweep-axes.ts; what a sweep reports, its
 * status, rows and summary, in ./sweep-results.ts (both exported from here too).
 */

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
    models: z.array(SweepModelIdSchema).min(1).max(10).optional(),
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
  apiKeys: z.record(SweepAxisIdSchema, ApiKeySchema).optional(),
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

export * from './sweep-axes';
export * from './sweep-results';
