import { errorResponse, HttpError, requestOwnsRun } from '@/lib/server';
import { runJsonlStream, getStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The run's log as a JSONL download, one event a line, exactly as stored; streamed a page of rows at a time. */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const { id } = await params;
    // Room mode: another visitor's is answered as a missing one is.
    await requestOwnsRun(request, id);
    const text = await runJsonlStream({ store: getStore(), runId: id });
    if (text === undefined) throw new HttpError(404, `No run with id "${id}"`);
    return new Response(text, {
      headers: {
        'Content-Type': 'application/x-ndjson; charset=utf-8',
        'Content-Disposition': `attachment; filename="run-${id}.jsonl"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
