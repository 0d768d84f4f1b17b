import { createSweepSseResponse, errorResponse, getSweepRegistry, requestOwnsSweep } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The sweep's progress as SSE: the current state, then changes; closes when the sweep ends. */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const { id } = await params;
    // Room mode: another visitor's is answered as a missing one is.
    await requestOwnsSweep(request, id, `No sweep with id ${id}`);
    return await createSweepSseResponse({
      registry: getSweepRegistry(),
      sweepId: id,
      signal: request.signal,
    });
  } catch (error) {
    return errorResponse(error);
  }
}
