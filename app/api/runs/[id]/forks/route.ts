import { ForkListSchema } from '@/lib/protocol/http';
import { errorResponse, HttpError, jsonResponse, requestOwnsRun } from '@/lib/server';
import { getStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The runs forked from this one, oldest first: run summaries with `forked_at_turn`. */
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
    return jsonResponse(ForkListSchema, await store.listForks(id));
  } catch (error) {
    return errorResponse(error);
  }
}
