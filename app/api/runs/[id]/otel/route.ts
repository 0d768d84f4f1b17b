import { errorResponse, HttpError, requestOwnsRun } from '@/lib/server';
import { getStore } from '@/lib/store';
import { runToOtlp } from '@/lib/otel/run-to-otlp';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The run as OTLP/JSON with GenAI spans (invoke_agent, chat per attempt, execute_tool): post it
 * to any OTLP/HTTP endpoint (`/v1/traces`, Content-Type application/json) — Jaeger, Phoenix,
 * Langfuse — or import it back here.
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
    const record = await store.getRun(id);
    if (!record) throw new HttpError(404, `No run with id "${id}"`);
    const body = runToOtlp({
      runId: id,
      events: await store.readEvents({ runId: id }),
      startedAtMs: Date.parse(record.summary.created_at),
    });
    return new Response(body, {
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="run-${id}.otlp.json"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
