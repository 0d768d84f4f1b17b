import { errorResponse, getFinishedRunViews, HttpError, sharedRunId } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** A shared run folded, as GET /api/runs/{id}/view answers (a run still going: { finished: false }). */
export async function GET(
  _request: Request,
  { params }: { params: Promise<{ token: string }> },
): Promise<Response> {
  try {
    const { token } = await params;
    const body = await getFinishedRunViews().body(await sharedRunId(token));
    if (body === undefined) throw new HttpError(404, 'No shared run at this link (it may have been revoked)');
    return new Response(body, {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
