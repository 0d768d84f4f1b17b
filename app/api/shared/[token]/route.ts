import { RunRecordSchema } from '@/lib/protocol/http';
import { errorResponse, HttpError, jsonResponse, sharedRunId } from '@/lib/server';
import { getStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * A shared run's summary and config, as GET /api/runs/{id} answers its maker: open to anyone
 * with the link, room mode or not (lib/server/room-shares.ts). An unknown or revoked link is a 404.
 */
export async function GET(
  _request: Request,
  { params }: { params: Promise<{ token: string }> },
): Promise<Response> {
  try {
    const { token } = await params;
    const id = await sharedRunId(token);
    const record = await getStore().getRun(id);
    if (!record) throw new HttpError(404, 'No shared run at this link (it may have been revoked)');
    return jsonResponse(RunRecordSchema, record);
  } catch (error) {
    return errorResponse(error);
  }
}
