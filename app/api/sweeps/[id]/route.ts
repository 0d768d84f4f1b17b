import { SweepDetailSchema } from '@/lib/protocol/http';
import { errorResponse, getSweepRegistry, HttpError, jsonResponse, requestOwnsSweep } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** `{ sweep, grid, rows }`: the sweep, what it ran and its table so far. */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const { id } = await params;
    // Room mode: another visitor's is answered as a missing one is.
    await requestOwnsSweep(request, id);
    const result = await getSweepRegistry().read(id);
    if (!result) throw new HttpError(404, `No sweep with id "${id}"`);
    return jsonResponse(SweepDetailSchema, result);
  } catch (error) {
    return errorResponse(error);
  }
}
