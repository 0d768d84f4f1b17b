import { errorResponse, HttpError } from '@/lib/server';
import { getStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** One run's summary and config: { summary, config }. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await params;
    const record = getStore().getRun(id);
    if (!record) throw new HttpError(404, `No run with id "${id}"`);
    return Response.json(record, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    return errorResponse(error);
  }
}
