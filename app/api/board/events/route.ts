import { BoardSchema } from '@/lib/protocol/http';
import { boardNow, createSseStream, errorResponse, onBoardChange, requireTeacher } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The teacher's board as SSE: the board at once, then the board again after each change (a
 * join, a run starting or ending, a lesson played, a notice), the changes of one turn of the
 * event loop sent as one frame. Nothing polls: a quiet room sends only the heartbeat.
 */
export async function GET(request: Request): Promise<Response> {
  try {
    await requireTeacher(request);
    return createSseStream({
      signal: request.signal,
      subscribe: (sink) => {
        let queued = false;
        const send = () => {
          queued = false;
          sink.send(`data: ${JSON.stringify(BoardSchema.parse(boardNow()))}\n\n`);
        };
        send();
        return onBoardChange(() => {
          if (queued) return;
          queued = true;
          setImmediate(send);
        });
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
