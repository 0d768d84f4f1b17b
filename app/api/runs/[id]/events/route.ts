import { createSseResponse, errorResponse, getRunRegistry, requestOwnsRun, resumePoint } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The run's events as SSE; resumes after Last-Event-ID (or ?after=) and ends with terminate. */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const { id } = await params;
    // Room mode: another visitor's is answered as a missing one is.
    await requestOwnsRun(request, id);
    return await createSseResponse({
      registry: getRunRegistry(),
      runId: id,
      afterSeq: resumePoint({ request }),
      signal: request.signal,
    });
  } catch (error) {
    return errorResponse(error);
  }
}
