import { z } from 'zod';
import { ClockKindSchema } from '../config';
import { TaskVerdictSchema, TerminateReasonSchema } from '../events';

/**
 * GET /api/compare?a=<run id>&b=<run id>: two runs side by side (lib/compare). Every count is
 * read off the two logs as they stand; a side still running has no totals yet.
 */

/** One side of a divergence: the step that run took there (null: none, it had ended). */
export const DivergentStepSchema = z
  .object({ seq: z.number().int(), turn: z.number().int().nullable(), label: z.string() })
  .strict();
export type DivergentStep = z.infer<typeof DivergentStepSchema>;

/** Where two runs stop doing the same thing. */
export const DivergenceSchema = z
  .object({
    /** The turn it happened in (the earlier of the two sides' turns); null: only how the runs ended differs. */
    turn: z.number().int().nullable(),
    /** Position in the runs' step sequences (0 = first step). */
    step: z.number().int(),
    a: DivergentStepSchema.nullable(),
    b: DivergentStepSchema.nullable(),
    /** One line: what differed. */
    description: z.string(),
  })
  .strict();
export type Divergence = z.infer<typeof DivergenceSchema>;

/** One side of one turn, condensed. */
export const TurnSideSchema = z
  .object({
    /** Seq of the turn's first event. */
    firstSeq: z.number().int(),
    /** Run-clock ms the turn started, and how long it took (so far, while it runs). */
    startMs: z.number(),
    durationMs: z.number(),
    /** Foreground model requests in the turn. */
    attempts: z.number().int(),
    /** What the model said (while streaming: what has arrived). */
    text: z.string(),
    stopReason: z.string().nullable(),
    toolCalls: z.array(z.string()),
    /** Errors, retries, faults and every recovery step, in order. */
    recovery: z.array(z.string()),
    /** The next turn (or the end) has started. */
    finished: z.boolean(),
    /** Vendor and model of the turn's latest foreground request (a takeover changes them mid-run); null before one. */
    vendor: z.string().nullable(),
    model: z.string().nullable(),
    /** A fork's turn copied from its parent's log, not run by this run. */
    copied: z.boolean(),
  })
  .strict();
export type TurnSide = z.infer<typeof TurnSideSchema>;

/** Turn n of both runs (a side is null when that run has no such turn). */
export const AlignedTurnSchema = z
  .object({
    turn: z.number().int(),
    a: TurnSideSchema.nullable(),
    b: TurnSideSchema.nullable(),
    diverged: z.boolean(),
  })
  .strict();
export type AlignedTurn = z.infer<typeof AlignedTurnSchema>;

/** A line of the totals table: every total of a run but the bookkeeping ones (lib/compare/run-totals). */
export type TotalsLineId =
  | 'reason'
  | 'complete'
  | 'verdict'
  | 'trustedEditedTests'
  | 'durationMs'
  | 'turns'
  | 'inputTokens'
  | 'outputTokens'
  | 'usd'
  | 'wastedTokens'
  | 'errorsSeen'
  | 'attempts'
  | 'httpRequests'
  | 'failedAttempts'
  | 'failedToolRuns'
  | 'titled'
  | 'subagentInputTokens'
  | 'subagentOutputTokens'
  | 'subagentUsd'
  | 'subagentRequests';
/** Which way is better on a line. */
export type Direction = 'low' | 'high';

/**
 * What "better" means where a comparison has a measure of its own (a lesson): the lines that
 * decide, each with its direction, in words. Only these lines are judged; the rest are shown.
 * Declaring a line is declaring the two endings comparable on it, so a line in a criterion is
 * judged even when only one run finished its work (a Partial presented is an answer given).
 */
export interface Criterion {
  /** In words, e.g. "time and cost until the user has an answer, and tokens paid twice". */
  says: string;
  lines: Partial<Record<TotalsLineId, Direction>>;
}

export const TotalsUnitSchema = z.enum(['ms', 'tokens', 'usd', 'count', 'text']);
export type TotalsUnit = z.infer<typeof TotalsUnitSchema>;

/** One line of the totals diff; `better` names the side that did better (null: equal, or neither is better). */
export const TotalsDiffRowSchema = z
  .object({
    id: z.string(),
    label: z.string(),
    unit: TotalsUnitSchema,
    a: z.union([z.number(), z.string()]).nullable(),
    b: z.union([z.number(), z.string()]).nullable(),
    better: z.enum(['a', 'b']).nullable(),
    /** Why a line that differs is not judged (e.g. only one run finished its work). */
    note: z.string().nullable(),
  })
  .strict();
export type TotalsDiffRow = z.infer<typeof TotalsDiffRowSchema>;

/** One config field that differs; values are JSON text, null when the field is absent. */
export const ConfigDiffRowSchema = z
  .object({ path: z.string(), a: z.string().nullable(), b: z.string().nullable() })
  .strict();
export type ConfigDiffRow = z.infer<typeof ConfigDiffRowSchema>;

/** Who a side is: enough to title its column and link to it. */
export const CompareSideSchema = z
  .object({
    id: z.string(),
    title: z.string().nullable(),
    scenario: z.string(),
    vendor: z.string(),
    model: z.string(),
    preset: z.string(),
    seed: z.number().int(),
    /** No terminate in the log yet. */
    running: z.boolean(),
    reason: TerminateReasonSchema.nullable(),
    verdict: TaskVerdictSchema.nullable(),
    eventCount: z.number().int(),
    /**
     * The run's clock and time scale, and the run-clock ms of its latest event: between two
     * answers a live real- or paced-clock run goes on (a retry's wait writes no event), so the
     * page moves its times on from `clockTs` by wall time / timeScale, as the run page does.
     */
    clock: ClockKindSchema,
    timeScale: z.number(),
    clockTs: z.number(),
    /** The run this one was forked from and the turn it continued after (forked_from); null: not a fork. */
    forkedFrom: z.object({ runId: z.string(), turn: z.number().int() }).strict().nullable(),
    /**
     * A fork's totals include the turns it copied from its parent: what that part was (its
     * turns, the run-clock ms of its last copied event, the tokens and cost it inherited), so a
     * page can say how much of a total is the parent's. null: not a fork.
     */
    copied: z
      .object({
        turns: z.number().int(),
        durationMs: z.number(),
        inputTokens: z.number().int(),
        outputTokens: z.number().int(),
        usd: z.number(),
      })
      .strict()
      .nullable(),
  })
  .strict();
export type CompareSide = z.infer<typeof CompareSideSchema>;
export type CopiedPart = NonNullable<CompareSide['copied']>;

export const ComparisonSchema = z
  .object({
    a: CompareSideSchema,
    b: CompareSideSchema,
    turns: z.array(AlignedTurnSchema),
    /** How each run ended (task verdict, terminate), one line per step. */
    end: z.object({ a: z.array(z.string()), b: z.array(z.string()) }).strict(),
    divergence: DivergenceSchema.nullable(),
    totals: z.array(TotalsDiffRowSchema),
    config: z.array(ConfigDiffRowSchema),
    /**
     * The runs differ only in prompt text (system prompt, tool descriptions, prompt set) and every
     * vendor they used is simulated (lib/compare/prompt-only): which texts. The simulated model
     * does not read prompts, so nothing between the two runs is a prompt's effect. null: not so.
     */
    promptOnly: z
      .object({ fields: z.array(z.string()) })
      .strict()
      .nullable(),
  })
  .strict();
export type Comparison = z.infer<typeof ComparisonSchema>;

/** The query of GET /api/compare. */
export const CompareQuerySchema = z.object({
  /** A lesson's slug: judge the totals by that lesson's measure (its criterion) instead of the general rules. */
  lesson: z.string().min(1).max(100).optional(),
  a: z
    .string({ error: 'a: the id of the first run is required (?a=<run id>&b=<run id>)' })
    .min(1, 'a: the id of the first run is required'),
  b: z
    .string({ error: 'b: the id of the second run is required (?a=<run id>&b=<run id>)' })
    .min(1, 'b: the id of the second run is required'),
});
export type CompareQuery = z.infer<typeof CompareQuerySchema>;
