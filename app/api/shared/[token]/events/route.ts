import { createSseResponse, errorResponse, getRunRegistry, resumePoint, sharedRunId } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** A shared run's events as SSE, as GET /api/runs/{id}/events sends them (resumes after Last-Event-ID). */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ token: string }> },
): Promise<Response> {
  try {
    const { token } = await params;
    return await createSseResponse({
      registry: getRunRegistry(),
      runId: await sharedRunId(token),
      afterSeq: resumePoint({ request }),
      signal: request.signal,
    });
  } catch (error) {
    return errorResponse(error);
  }
}
