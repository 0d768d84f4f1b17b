import { z } from 'zod';
import { VendorSchema } from './config';
import { DeciderSchema } from './pause';
import { OUTPUT_CAP_MAX } from './recovery';

/** The longest text an edit may put in place of a tool result or a message. */
export const FORK_EDIT_MAX_CHARS = 100_000;
/** How many edits one fork may carry. */
export const FORK_EDITS_MAX = 20;

/**
 * One change to the state a fork starts from, made before its first request: the result the model
 * received for a tool call, the text of a message of the trajectory, or a parameter of the
 * requests the fork sends. Each is recorded in the fork's log as a `fork_edit` event (before and
 * after) and applied again by anything that rebuilds the trajectory from that log.
 */
export const ForkEditSchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('tool_result'),
        /** The tool call whose result is replaced (its id, as the tool_call event has it). */
        callId: z.string().trim().min(1, 'name the tool call (its call_id)').max(200),
        /** What the model receives instead. */
        content: z.string().max(FORK_EDIT_MAX_CHARS),
        /** Whether the model receives it as an error; absent: as the original result was. */
        isError: z.boolean().optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('message'),
        /**
         * The turn that added the message: 0 is the task; a turn adds the model's reply
         * (`assistant`) and then what the model received (`user`: a continuation prompt's text, or
         * tool results, edited with kind tool_result).
         */
        turn: z.number().int().min(0).max(500),
        role: z.enum(['user', 'assistant']),
        /** Replaces the message's text (its tool calls and reasoning stay as they were). */
        text: z
          .string()
          .min(1, 'an empty message: write the text the model should see')
          .max(FORK_EDIT_MAX_CHARS),
      })
      .strict(),
    z
      .object({
        kind: z.literal('params'),
        /** The output cap of every request the fork sends (the run config's maxOutputTokens). */
        maxOutputTokens: z.number().int().min(16).max(OUTPUT_CAP_MAX),
      })
      .strict(),
  ],
  { error: 'kind must be "tool_result", "message" or "params"' },
);
export type ForkEdit = z.infer<typeof ForkEditSchema>;

/**
 * Fork a stored run at turn `atTurn`: the new run starts from the parent's
 * trajectory up to and including that turn, rebuilt from its event log, and continues live on
 * `provider`/`model`/`baseUrl` (default: the vendor and model the parent was on at that turn)
 * with the parent's config otherwise, seed included. The key for the child is the body's
 * `apiKey`, never part of the fork spec, under the one key rule (resolveClientConfig).
 */
export const ForkSpecSchema = z
  .object({
    runId: z.string().trim().min(1, 'name the run to fork (its id)').max(100),
    atTurn: z.number().int().min(1, 'turns count from 1').max(500),
    provider: VendorSchema.optional(),
    /** Empty or absent: the vendor's default model (or the parent's, when the vendor is the parent's). */
    model: z.string().trim().max(200).optional(),
    /**
     * Where the child's requests go (an OpenAI-compatible server, say). A request-chosen URL needs
     * the request's own key (the body's `apiKey`, beside `fork`), as for every run.
     * Absent: the parent's address when the vendor is the parent's, else the vendor's own.
     */
    baseUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .max(2000)
      .optional(),
    /** Changes to the state at the turn, applied in order before the fork's first request. */
    edits: z.array(ForkEditSchema).max(FORK_EDITS_MAX).optional(),
    /** Who made the edits, recorded in each fork_edit event; absent: `api`. */
    by: DeciderSchema.exclude(['timeout']).optional(),
    /** Never here: a key inside the fork spec is refused with where it goes instead. */
    apiKey: z.never({ error: "send the key as the body's apiKey, beside fork, not inside it" }).optional(),
  })
  .strict();
export type ForkSpec = z.infer<typeof ForkSpecSchema>;

/** Where a forked run came from: stored with the child, listed on the parent. */
export interface ForkLink {
  runId: string;
  turn: number;
}
