import { createSweepSseResponse, errorResponse, getSweepRegistry } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The sweep's progress as SSE: the current state, then changes; closes when the sweep ends. */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const { id } = await params;
    return createSweepSseResponse({ registry: getSweepRegistry(), sweepId: id, signal: request.signal });
  } catch (error) {
    return errorResponse(error);
  }
}
