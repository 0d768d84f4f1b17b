import { createSseStream, errorResponse, followNotices, requireMember, resumePoint } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The teacher's notices as SSE, for every page in the room. `id:` is the notice's id: a page
 * that reconnects (Last-Event-ID) or names the last one it dismissed (`?after=`) gets those
 * after it; a page that names none gets the last one sent; then each as it is sent. 404 outside a room.
 */
export async function GET(request: Request): Promise<Response> {
  try {
    await requireMember(request);
    const after = resumePoint({ request });
    return await createSseStream({
      signal: request.signal,
      subscribe: (sink) =>
        followNotices(after < 0 ? undefined : after, (notice) =>
          sink.send(`id: ${notice.id}\ndata: ${JSON.stringify(notice)}\n\n`),
        ),
    });
  } catch (error) {
    return errorResponse(error);
  }
}
