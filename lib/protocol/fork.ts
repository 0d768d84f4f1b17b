import { z } from 'zod';
import { VendorSchema } from './config';

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
