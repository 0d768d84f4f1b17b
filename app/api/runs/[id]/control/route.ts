import { checkVendorTarget } from '@/lib/runtime/validate-config';
import { ControlAcceptedSchema, ControlBodySchema } from '@/lib/protocol/http';
import { getRunRegistry, HttpError, jsonResponse, ownedPost, type IdContext } from '@/lib/server';
import { getStore } from '@/lib/store';
import { toControlMessage } from './to-control-message';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Queues a control message; the engine applies it at the next request boundary (abort: at once).
 * Room mode: another visitor's run is answered as a missing one is.
 */
export async function POST(request: Request, context: IdContext): Promise<Response> {
  return ownedPost({ request, context, kind: 'run', schema: ControlBodySchema }, async ({ id, body }) => {
    const message = toControlMessage(body);
    if (message.action === 'swap') {
      // Say now what the run would only log later: a swap this installation cannot make.
      const clock = (await getStore().getRun(id))?.config.clock ?? 'real';
      const problems = checkVendorTarget({ target: message.target, clock });
      if (problems.length > 0) throw new HttpError(400, 'This swap cannot be made here', problems);
    }
    await getRunRegistry().control({ runId: id, message });
    return jsonResponse(ControlAcceptedSchema, { accepted: body.action }, { status: 202 });
  });
}
