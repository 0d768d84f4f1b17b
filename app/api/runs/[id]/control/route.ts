import { errorResponse, getRunRegistry, readJson, refuseCrossSite } from '@/lib/server';
import { ControlBodySchema, toControlMessage } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Queues a control message; the engine applies it at the next request boundary (abort: at once). */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    refuseCrossSite({ request });
    const { id } = await params;
    const body = ControlBodySchema.parse(await readJson({ request }));
    getRunRegistry().control({ runId: id, message: toControlMessage(body) });
    return Response.json({ accepted: body.action }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
