import { suggestSwaps } from '@/lib/runtime/swap-suggestions';
import { SwapTargetsSchema } from '@/lib/protocol/http';
import { errorResponse, getRunRegistry, HttpError, jsonResponse, requestOwnsRun } from '@/lib/server';
import { getStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Suggested demos for "Swap to…": the run's history as of its last finished turn rendered for
 * every simulated target, naively and as handled, each judged by the vendor's own checks.
 */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const { id } = await params;
    // Room mode: another visitor's is answered as a missing one is.
    await requestOwnsRun(request, id);
    const store = getStore();
    if (!(await store.getRun(id))) throw new HttpError(404, `No run with id "${id}"`);
    await getRunRegistry().writePending(id);
    return jsonResponse(SwapTargetsSchema, suggestSwaps(await store.readEvents({ runId: id })));
  } catch (error) {
    return errorResponse(error);
  }
}
