import { z } from 'zod';
import { MCP_SERVER_NOT_FROM_WEB } from '../mcp';
import { PromptSetRefSchema, RunConfigSchema, STRATEGY_NOT_FROM_WEB, TASK_DIR_NOT_FROM_WEB } from '../config';
import { RunEventSchema, TaskVerdictSchema, TerminateReasonSchema } from '../events';
import { ForkSpecSchema } from '../fork';
import { ApiKeySchema } from './api-key';

/** Where a run stands, derived from its log: no terminate yet means running. */
export const RunStatusSchema = z.enum(['running', 'completed', 'failed', 'aborted']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/**
 * One row of GET /api/runs (and `summary` of GET /api/runs/{id}): cheap to read, kept up to
 * date as events are appended. Field names follow the event log (snake_case).
 */
export const RunSummarySchema = z
  .object({
    id: z.string(),
    /** ISO 8601 wall-clock time the run was created (or imported). */
    created_at: z.string(),
    status: RunStatusSchema,
    reason: TerminateReasonSchema.nullable(),
    complete: z.boolean().nullable(),
    /** The scenario's check on the final workspace (null: no verdict in the log, e.g. an import). */
    verdict: TaskVerdictSchema.nullable(),
    /** The vendor and model the run started on. */
    vendor: z.string(),
    model: z.string(),
    /**
     * Every vendor and model the run used, in order, the start first: a swap (by hand, planned,
     * cross-vendor fallback, a fork moving on) or a fallback model adds one. A fork starts where
     * its copied turns ran.
     */
    vendors: z.array(z.object({ vendor: z.string(), model: z.string() }).strict()).min(1),
    scenario: z.string(),
    /** The short title the background call gave the run (null until it did, or if it gave up). */
    title: z.string().nullable(),
    /** From the config: the recovery preset, the seed, the enabled faults, the prompt set used. */
    preset: z.string(),
    /**
     * What the config changed from its preset, in the mechanisms' words where it maps
     * (lib/mechanisms/describe-overrides.ts): "watchdog off", "fallback on", "retry.maxRetries = 5".
     */
    overrides: z.array(z.string()),
    seed: z.number().int().nullable(),
    faults: z.array(z.string()),
    prompt_set: PromptSetRefSchema.nullable(),
    iterations: z.number().int(),
    input_tokens: z.number(),
    output_tokens: z.number(),
    usd: z.number(),
    /** The run clock's ts of the last event (ms since run start). */
    duration_ms: z.number(),
    event_count: z.number().int(),
    imported: z.boolean(),
  })
  .strict();
export type RunSummary = z.infer<typeof RunSummarySchema>;

/** GET /api/runs: newest first. */
export const RunSummaryListSchema = z.array(RunSummarySchema);

/** GET /api/runs/{id}: the summary and the config that produced the run. */
export const RunRecordSchema = z
  .object({
    summary: RunSummarySchema,
    config: RunConfigSchema,
  })
  .strict();
export type RunRecord = z.infer<typeof RunRecordSchema>;

/**
 * POST /api/runs: a config, or a fork of a stored run (`fork`, lib/protocol/fork.ts); and a
 * key for this run only when the browser supplies one.
 */
export const CreateRunBodySchema = z
  .object({
    config: RunConfigSchema.optional(),
    fork: ForkSpecSchema.optional(),
    apiKey: ApiKeySchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.config?.strategy) {
      ctx.addIssue({ code: 'custom', path: ['config', 'strategy'], message: STRATEGY_NOT_FROM_WEB });
    }
    if (body.config?.taskDir) {
      ctx.addIssue({ code: 'custom', path: ['config', 'taskDir'], message: TASK_DIR_NOT_FROM_WEB });
    }
    body.config?.mcp?.servers.forEach((server, i) => {
      if ('command' in server || 'url' in server)
        ctx.addIssue({
          code: 'custom',
          path: ['config', 'mcp', 'servers', i],
          message: MCP_SERVER_NOT_FROM_WEB,
        });
    });
    if (body.config && body.fork) {
      ctx.addIssue({
        code: 'custom',
        path: ['fork'],
        message: 'send either a config (a new run) or a fork (a stored run continued), not both',
      });
    } else if (!body.config && !body.fork) {
      ctx.addIssue({
        code: 'custom',
        path: ['config'],
        message: 'required: the run config, or a fork { runId, atTurn } to continue a stored run',
      });
    }
  });
export type CreateRunBody = z.infer<typeof CreateRunBodySchema>;
export type CreateRunBodyInput = z.input<typeof CreateRunBodySchema>;

/**
 * 201 from POST /api/runs: the run's id and the events it has logged so far (run_start at
 * least), so the page draws the run at once and opens its stream after them (`?after=`).
 */
export const CreatedRunSchema = z
  .object({
    id: z.string().min(1),
    events: z.array(RunEventSchema),
  })
  .strict();
export type CreatedRun = z.infer<typeof CreatedRunSchema>;

/** GET /api/runs?limit=N */
export const ListRunsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

/** GET /api/runs/{id}/forks: the runs forked from this one, oldest first, with the turn each started after. */
export const ForkSummarySchema = RunSummarySchema.extend({
  forked_at_turn: z.number().int().min(1),
}).strict();
export type ForkSummary = z.infer<typeof ForkSummarySchema>;
export const ForkListSchema = z.array(ForkSummarySchema);
