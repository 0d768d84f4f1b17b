import { z } from 'zod';
import { TakeoverSchema, VendorSchema } from '../config';
import { FaultPlanSchema } from '../faults';
import { PAUSE_ACTIONS, PauseControlSchema } from '../pause';
import { ApiKeySchema } from './api-key';

/**
 * POST /api/runs/{id}/control. A client may abort, change the fault plan, ask for a full
 * compaction before the next request ("Compact now"), or swap the vendor and model (from the
 * next request); 'abandoned' is the server's own reason and cannot be sent. A swap to a real
 * endpoint may bring its own base URL and key, held in server memory for this run only. The hands-on
 * actions (lib/protocol/pause.ts) take effect at once: pause, step, continue, cancel, set_breakpoints,
 * and approve / deny / edit for a tool call waiting for approval.
 */
export const ControlBodySchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('abort') }).strict(),
  z.object({ action: z.literal('set_faults'), faults: FaultPlanSchema }).strict(),
  z.object({ action: z.literal('compact') }).strict(),
  z
    .object({
      action: z.literal('swap'),
      vendor: VendorSchema,
      model: z.string().max(200).default(''),
      baseUrl: z.string().url().optional(),
      apiKey: ApiKeySchema.optional(),
      /** How history is handed over on this swap; absent: the run's own `takeover`. */
      takeover: TakeoverSchema.optional(),
    })
    .strict(),
  ...PauseControlSchema.options,
]);
export type ControlBody = z.infer<typeof ControlBodySchema>;
export type ControlBodyInput = z.input<typeof ControlBodySchema>;

/** 202 from the control route: the message is queued for the next request boundary (abort and the hands-on actions: at once). */
export const ControlAcceptedSchema = z
  .object({ accepted: z.enum(['abort', 'set_faults', 'compact', 'swap', ...PAUSE_ACTIONS]) })
  .strict();
export type ControlAccepted = z.infer<typeof ControlAcceptedSchema>;

/** What the strict simulated vendor answers to a rendered request: accepted, or its real error. */
export const ProbeVerdictSchema = z
  .object({
    accepted: z.boolean(),
    status: z.number().int().optional(),
    type: z.string().optional(),
    message: z.string().optional(),
  })
  .strict();

/**
 * One place the run could be swapped to now: the history rendered for it naively (as it was,
 * credentials included) and as the run's takeover handling renders it, each judged by that
 * simulated vendor's own checks. `naive` absent: no simulator judges that vendor.
 */
export const SwapSuggestionSchema = z
  .object({
    vendor: VendorSchema,
    model: z.string(),
    naive: ProbeVerdictSchema.optional(),
    handled: ProbeVerdictSchema.optional(),
    /** What the handled rendering dropped (signatures, foreign thinking …), counted by kind. */
    dropped: z.array(z.string()),
  })
  .strict();
export type SwapSuggestion = z.infer<typeof SwapSuggestionSchema>;

/** GET /api/runs/{id}/swap-targets: for the history as of `atTurn`, every simulated target, naive failures first. */
export const SwapTargetsSchema = z.discriminatedUnion('ok', [
  z
    .object({
      ok: z.literal(true),
      atTurn: z.number().int().min(1),
      vendor: z.string(),
      model: z.string(),
      targets: z.array(SwapSuggestionSchema),
    })
    .strict(),
  z.object({ ok: z.literal(false), problem: z.string() }).strict(),
]);
export type SwapTargets = z.infer<typeof SwapTargetsSchema>;
