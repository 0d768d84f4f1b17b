import { SweepRunMetricsListSchema, SweepRunsQuerySchema } from '@/lib/protocol/http';
import { errorResponse, HttpError, jsonResponse, requestOwnsSweep } from '@/lib/server';
import { getSweepStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The run summaries of a sweep, or of one cell of its table (`?key=`), in job order. */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const { id } = await params;
    // Room mode: another visitor's is answered as a missing one is.
    await requestOwnsSweep(request, id);
    const { key } = SweepRunsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    const store = getSweepStore();
    if (!(await store.getSweep(id))) throw new HttpError(404, `No sweep with id "${id}"`);
    const runs = (await store.readSweepMetrics(id)).filter((m) => key === undefined || m.key === key);
    return jsonResponse(SweepRunMetricsListSchema, runs);
  } catch (error) {
    return errorResponse(error);
  }
}
