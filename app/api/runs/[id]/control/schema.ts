import { z } from 'zod';
import { FaultPlanSchema } from '@/lib/protocol';
import type { ControlMessage } from '@/lib/runtime/types';

/**
 * POST /api/runs/{id}/control. A client may abort, change the fault plan, or ask for a full
 * compaction before the next request ("Compact now"); 'abandoned'
 * is the server's own reason and cannot be sent.
 */
export const ControlBodySchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('abort') }).strict(),
  z.object({ action: z.literal('set_faults'), faults: FaultPlanSchema }).strict(),
  z.object({ action: z.literal('compact') }).strict(),
]);

export function toControlMessage(body: z.infer<typeof ControlBodySchema>): ControlMessage {
  return body.action === 'abort' ? { action: 'abort', reason: 'aborted' } : body;
}
