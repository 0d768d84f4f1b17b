import { SweepCancelledSchema } from '@/lib/protocol/http';
import {
  errorResponse,
  getSweepRegistry,
  jsonResponse,
  refuseCrossSite,
  requestOwnsSweep,
} from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Cancels a running sweep: its workers stop, finished runs stay; 409 once it has ended. */
export async function POST(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    refuseCrossSite({ request });
    const { id } = await params;
    // Room mode: another visitor's is answered as a missing one is.
    await requestOwnsSweep(request, id, `No sweep with id ${id}`);
    await getSweepRegistry().cancel(id);
    return jsonResponse(SweepCancelledSchema, { ok: true }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
