import { MAX_WIRE_BYTES_PER_RUN } from '@/lib/protocol';
import { RunWireSchema } from '@/lib/protocol/http';
import { errorResponse, getRunRegistry, HttpError, jsonResponse, requestOwnsRun } from '@/lib/server';
import { getStore, getWireStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** `?n=3`: that request only (a whole number from 1); absent: every request the run kept. */
function requestNoOf(request: Request): number | undefined {
  const n = new URL(request.url).searchParams.get('n');
  if (n === null) return undefined;
  if (!/^[1-9]\d{0,8}$/.test(n))
    throw new HttpError(400, `n must be a request number, a whole number from 1 (got "${n.slice(0, 40)}")`);
  return Number(n);
}

/**
 * A run's wire: each request as the SDK sent it (the key replaced by a placeholder) and the
 * response as it received it, with the run-clock time of each read (lib/protocol/wire.ts). Kept in
 * the store within MAX_WIRE_BYTES_PER_RUN, so a finished run's wire is there after a restart.
 */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const { id } = await params;
    // Room mode: another visitor's is answered as a missing one is.
    await requestOwnsRun(request, id);
    const n = requestNoOf(request);
    if (!(await getStore().getRun(id))) throw new HttpError(404, `No run with id "${id}"`);
    return jsonResponse(RunWireSchema, {
      run_id: id,
      live: await getRunRegistry().isLive(id),
      max_bytes: MAX_WIRE_BYTES_PER_RUN,
      requests: await getWireStore().readWire(id, n),
    });
  } catch (error) {
    return errorResponse(error);
  }
}
