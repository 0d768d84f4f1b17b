import { z } from 'zod';
import { ScheduledSwapSchema, TakeoverRuleSchema, TakeoverSchema } from '../config';
import { base } from './fields';
import { ErrorCategorySchema } from './model-call-events';

/**
 * Vendor changes: a swap mid-run, a fork's start from a parent's turn, and the takeover report
 * of what travelled to the new vendor.
 */

/** The largest request body a takeover event keeps, in characters of its JSON. */
export const SENT_BODY_MAX_CHARS = 200_000;

/**
 * A request body as the provider adapter sent it (the JSON the SDK serialises, no headers, no
 * key), with the endpoint it went to. A body over SENT_BODY_MAX_CHARS keeps only its size.
 */
export const SentBodySchema = z.object({
  vendor: z.string(),
  model: z.string(),
  /** Where it went: the base URL and the API's path, as the adapter's SDK client addresses it. */
  url: z.string().optional(),
  chars: z.number().int().min(0),
  body: z.unknown().optional(),
  /** Why the body is not kept (over the size kept). */
  omitted: z.string().optional(),
});

export const SwapEventSchema = z.object({
  ...base,
  event: z.literal('swap'),
  /** The turn about to start on the new vendor. */
  iteration: z.number().int().min(0),
  from_vendor: z.string(),
  from_model: z.string(),
  to_vendor: z.string(),
  to_model: z.string(),
  /** The dialect the new vendor speaks (lib/dialects). */
  dialect: z.string(),
  /** fork: a forked run continuing on another vendor or model than its parent was on at that turn. */
  cause: z.enum(['control', 'scheduled', 'fallback', 'fork']),
  /** Why, in words (e.g. "3 consecutive overloaded errors"). */
  reason: z.string().optional(),
  handling: TakeoverSchema,
  /** The new model's context window when known. */
  context_window: z.number().int().optional(),
  /** What the swap does to the prompt cache, in words: a vendor's cache is per model, so the next request reads none of it. */
  cache_note: z.string().optional(),
  /**
   * A swap made by hand, as the store records it into the run's config (its `swaps`), so a
   * re-run makes it again at this turn. Absent for every other cause.
   */
  recorded_as: ScheduledSwapSchema.optional(),
  /** A swap made by hand that could not be recorded into the config, and why (its address or key came with the swap). */
  not_recorded: z.string().optional(),
  /**
   * The last request body sent before the swap, on the vendor left behind, as its adapter sent
   * it (no headers, no key). Absent when nothing was sent yet (a fork's first request) or the
   * body was over the stored size.
   */
  sent_before: SentBodySchema.optional(),
});

export const ForkedFromEventSchema = z.object({
  ...base,
  /**
   * This run is a fork: it starts from `parent_run_id`'s trajectory up to and including
   * `turn`. The `copied_events` events after this one are the parent's, copied with their
   * ts (run_id and seq are this run's); the live run goes on from turn + 1.
   */
  event: z.literal('forked_from'),
  parent_run_id: z.string(),
  turn: z.number().int().min(1),
  /** The vendor and model the parent was on at that turn. */
  from_vendor: z.string(),
  from_model: z.string(),
  copied_events: z.number().int().min(0),
  /** Messages of the trajectory carried over (task, replies, tool results, prompts). */
  messages: z.number().int().min(0),
  /** What the copied turns cost the parent; counted in this run's totals as inherited. */
  inherited: z.object({ usd: z.number(), input_tokens: z.number().int(), output_tokens: z.number().int() }),
  /** Workspace edits replayed from the copied tool calls, and any whose result differed from the parent's. */
  workspace: z.object({ replayed: z.number().int().min(0), diverged: z.array(z.string()) }),
  /**
   * Where the fork takes up its parent's fault plan (lib/runtime/fork-faults.ts): the parent's
   * model requests up to the turn, counted by the plan (the fork's request n is the plan's
   * requests_before + n, for rules on request numbers and chance), and the `next N` hits each
   * rule had spent; `why` says it in words. Absent in forks made before forks kept it.
   */
  faults: z
    .object({
      requests_before: z.number().int().min(0),
      spent: z.record(z.string(), z.number().int().min(0)),
      why: z.string(),
    })
    .optional(),
});

export const TakeoverReportEventSchema = z.object({
  ...base,
  event: z.literal('takeover_report'),
  iteration: z.number().int().min(0),
  vendor: z.string(),
  model: z.string(),
  dialect: z.string(),
  /** What rendering the history for the new vendor converted, and what it dropped. */
  converted: z.array(z.string()),
  dropped: z.array(z.object({ kind: z.string(), detail: z.string() })),
  /**
   * What went as it was although a safeguard would have changed it: everything a naive
   * takeover carried over untouched (foreign credentials, a missing field), or what one
   * safeguard switched off let through. Counted like `converted`. Absent in logs from before it was kept.
   */
  as_is: z.array(z.string()).optional(),
  /**
   * Per takeover safeguard that came into play, counted by the renderer that applied it:
   * `applied`, the entries above it made (a credential dropped, a placeholder given, thinking
   * asked off, a held history re-sent by value); `as_is`, what it let through as it was, off.
   * Absent in logs from before it was kept.
   */
  safeguards: z
    .partialRecord(
      TakeoverRuleSchema,
      z.object({ applied: z.number().int().min(0), as_is: z.number().int().min(0) }),
    )
    .optional(),
  handling: TakeoverSchema,
  /**
   * The same request rendered naively (history as it was, credentials included) and
   * validated by the strict simulated vendor: its real verdict. Absent for real vendors, and
   * for a naive takeover: its request was the naive one, and `takeover_outcome` has the real answer.
   */
  naive: z
    .object({
      accepted: z.boolean(),
      status: z.number().int().optional(),
      type: z.string().optional(),
      message: z.string().optional(),
      body: z.unknown().optional(),
    })
    .optional(),
  /** The first request body on the new vendor, as its adapter sent it. */
  sent: SentBodySchema.optional(),
  /** The naive rendering of that same request (history as it was), the body `naive` judged. */
  naive_body: SentBodySchema.optional(),
});

/**
 * What the new vendor answered the first request after a swap (the one `takeover_report`
 * describes), written by the swap controller when that request settled, before the engine
 * classifies it (`model_error`) or records the turn (`llm_call`).
 */
export const TakeoverOutcomeEventSchema = z.object({
  ...base,
  event: z.literal('takeover_outcome'),
  iteration: z.number().int().min(0),
  vendor: z.string(),
  model: z.string(),
  /** How the history was handed over on that request: naive (as it was) or handled. */
  handling: TakeoverSchema,
  /**
   * accepted: the vendor took the request and answered it to its stop reason; refused: it
   * answered with an error status before any response began; failed: the response broke off
   * after it began, or no answer came (a dropped connection, a timeout, an abort).
   */
  outcome: z.enum(['accepted', 'refused', 'failed']),
  /** The error as the run's one classifier read it (the same words the `model_error` that follows carries). */
  status: z.number().int().optional(),
  vendor_type: z.string().optional(),
  message: z.string().optional(),
  category: ErrorCategorySchema.optional(),
});
