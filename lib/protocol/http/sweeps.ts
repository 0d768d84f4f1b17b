import { z } from 'zod';
import { ApiKeySchema } from './api-key';
import {
  CreateSweepRequestSchema,
  SweepGridSchema,
  SweepRowSchema,
  SweepRunMetricsSchema,
  SweepSummarySchema,
} from '../sweeps';
import { SweepPairedComparisonSchema } from '../sweep-analysis';

/**
 * POST /api/sweeps: the grid itself (the same document as the CLI's --grid file), with keys
 * for its "request" endpoints by endpoint id (held for this sweep only, never stored).
 */
export const CreateSweepBodySchema = CreateSweepRequestSchema;

/** GET /api/sweeps?limit=N: newest first. */
export const ListSweepsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const SweepSummaryListSchema = z.array(SweepSummarySchema);

/**
 * GET /api/sweeps/{id}: the sweep, what it ran, its table so far, and the paired comparisons of
 * its configurations on shared seeds (lib/sweeps/paired-comparison.ts): null until the sweep
 * ends, since a seed pairs only once both of its runs are in.
 */
export const SweepDetailSchema = z
  .object({
    sweep: SweepSummarySchema,
    grid: SweepGridSchema,
    rows: z.array(SweepRowSchema),
    comparisons: z.array(SweepPairedComparisonSchema).nullable(),
    /** Once it has ended: the jobs a re-run of what failed would run, with why (lib/sweeps/rerun-failed.ts). */
    failed: z.array(z.object({ job: z.number().int(), reason: z.string() })).optional(),
  })
  .strict();
export type SweepDetail = z.infer<typeof SweepDetailSchema>;

/** One frame of GET /api/sweeps/{id}/events: the summary with its rate and time left. */
export const SweepFrameSchema = SweepSummarySchema.extend({
  runs_per_sec: z.number(),
  eta_ms: z.number().nullable(),
});
export type SweepFrame = z.infer<typeof SweepFrameSchema>;

/** GET /api/sweeps/{id}/runs?key=config|scenario|faultPlan|vendor (omit key for every run). */
export const SweepRunsQuerySchema = z.object({
  key: z.string().min(1).max(400).optional(),
});
export const SweepRunMetricsListSchema = z.array(SweepRunMetricsSchema);

/** GET /api/sweeps/{id}/export?format=json|csv&what=table|runs (JSON always holds both). */
export const SweepExportQuerySchema = z.object({
  format: z.enum(['json', 'csv']).default('json'),
  what: z.enum(['table', 'runs']).default('table'),
});

/** GET /api/sweeps/{id}/export?format=json: a sweep as one JSON document. */
export const SweepExportSchema = z.object({
  /** What the two rates measure, so a reader of the file alone knows (lib/sweeps/sweep-export.ts). */
  definitions: z.object({ completion_rate: z.string(), verdict_rate: z.string() }),
  sweep: SweepSummarySchema,
  grid: SweepGridSchema,
  rows: z.array(SweepRowSchema),
  runs: z.array(SweepRunMetricsSchema),
});
export type SweepExport = z.infer<typeof SweepExportSchema>;

/** 202 from POST /api/sweeps/{id}/cancel. */
export const SweepCancelledSchema = z.object({ ok: z.literal(true) }).strict();

/**
 * POST /api/sweeps/{id}/rerun: a new sweep of only what failed in this one (lib/sweeps/rerun-failed.ts),
 * optionally served from its runs' recordings; keys for its "request" endpoints as for a new sweep.
 */
export const RerunSweepBodySchema = z
  .object({
    fromCassettes: z.boolean().default(false),
    apiKeys: z.record(z.string().min(1).max(64), ApiKeySchema).optional(),
  })
  .strict();
export type RerunSweepBody = z.infer<typeof RerunSweepBodySchema>;
