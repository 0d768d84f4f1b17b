import { RunRecordSchema } from '@/lib/protocol/http';
import { errorResponse, HttpError, jsonResponse, requestOwnsRun } from '@/lib/server';
import { getStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** One run's summary and config: { summary, config }. */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const { id } = await params;
    // Room mode: another visitor's is answered as a missing one is.
    await requestOwnsRun(request, id);
    const record = await getStore().getRun(id);
    if (!record) throw new HttpError(404, `No run with id "${id}"`);
    return jsonResponse(RunRecordSchema, record);
  } catch (error) {
    return errorResponse(error);
  }
}
