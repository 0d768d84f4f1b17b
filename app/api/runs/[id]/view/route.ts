import { errorResponse, getFinishedRunViews, HttpError, requestOwnsRun } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * A finished run already folded: { finished: true, view, named } — the view and the events it
 * names, not the whole log, which the page reads after its first paint from the trace route
 * (lib/protocol/http/run-view.ts) — written once per run and kept; a run still going answers { finished: false }.
 */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const { id } = await params;
    // Room mode: another visitor's is answered as a missing one is.
    await requestOwnsRun(request, id);
    const body = await getFinishedRunViews().body(id);
    if (body === undefined) throw new HttpError(404, `No run with id "${id}"`);
    return new Response(body, {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
