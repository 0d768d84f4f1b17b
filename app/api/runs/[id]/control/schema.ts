import { z } from 'zod';
import { FaultPlanSchema, VendorSchema } from '@/lib/protocol';
import type { ControlMessage } from '@/lib/runtime/types';

/**
 * POST /api/runs/{id}/control. A client may abort, change the fault plan, ask for a full
 * compaction before the next request ("Compact now"), or swap the vendor and model (from the
 * next request); 'abandoned' is the server's own reason and cannot be sent. A swap to a real
 * endpoint may bring its own base URL and key, held in server memory for this run only.
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
      apiKey: z.string().trim().min(1).max(1000).optional(),
    })
    .strict(),
]);
export type ControlBody = z.infer<typeof ControlBodySchema>;

export function toControlMessage(body: ControlBody): ControlMessage {
  switch (body.action) {
    case 'abort':
      return { action: 'abort', reason: 'aborted' };
    case 'set_faults':
    case 'compact':
      return body;
    case 'swap': {
      const { vendor, model, baseUrl, apiKey } = body;
      return { action: 'swap', target: { vendor, model, ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) } };
    }
  }
}
