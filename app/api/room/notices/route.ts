import {
  createSseStream,
  errorResponse,
  noticesAfter,
  onNotice,
  requireMember,
  resumePoint,
} from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The teacher's notices as SSE, for every page in the room (`id:` is the notice's id, so a page
 * that reconnects gets what it missed after Last-Event-ID; a page just opened gets what is sent
 * from now on). 404 outside a room.
 */
export async function GET(request: Request): Promise<Response> {
  try {
    await requireMember(request);
    const after = resumePoint({ request });
    return createSseStream({
      signal: request.signal,
      subscribe: (sink) => {
        for (const notice of noticesAfter(after < 0 ? undefined : after))
          sink.send(`id: ${notice.id}\ndata: ${JSON.stringify(notice)}\n\n`);
        return onNotice((notice) => sink.send(`id: ${notice.id}\ndata: ${JSON.stringify(notice)}\n\n`));
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
