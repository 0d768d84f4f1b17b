import { CreatedSchema, CreateSweepBodySchema, ListSweepsQuerySchema, SweepSummaryListSchema } from '@/lib/protocol/http';
import { errorResponse, getSweepRegistry, HttpError, jsonResponse, readJson, refuseCrossSite } from '@/lib/server';
import { validateSweepGrid } from '@/lib/sweeps/validate-grid';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Starts a sweep; the browser then follows GET /api/sweeps/{id}/events. */
export async function POST(request: Request): Promise<Response> {
  try {
    refuseCrossSite({ request });
    const grid = CreateSweepBodySchema.parse(await readJson({ request }));
    const problems = validateSweepGrid(grid);
    if (problems.length > 0) throw new HttpError(400, 'The grid cannot run here', problems);
    const { id } = getSweepRegistry().start(grid);
    return jsonResponse(CreatedSchema, { id }, { status: 201, headers: { Location: `/api/sweeps/${id}` } });
  } catch (error) {
    return errorResponse(error);
  }
}

/** Sweeps, newest first (the live progress and queue place of this process's sweeps). */
export async function GET(request: Request): Promise<Response> {
  try {
    const { limit } = ListSweepsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    return jsonResponse(SweepSummaryListSchema, getSweepRegistry().list({ limit }));
  } catch (error) {
    return errorResponse(error);
  }
}
