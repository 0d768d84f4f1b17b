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
    return await createSseStream({
      signal: request.signal,
      subscribe: async (sink) => {
        let queued = false;
        // One board read at a time, sent in the order read.
        let sending: Promise<void> = Promise.resolve();
        const send = async () => {
          queued = false;
          sink.send(`data: ${JSON.stringify(BoardSchema.parse(await boardNow()))}\n\n`);
        };
        // Listening before the first read: a change made while it is read is sent after it.
        const stop = await onBoardChange(() => {
          if (queued) return;
          queued = true;
          setImmediate(() => {
            sending = sending.then(send).catch((error: unknown) => {
              console.error(`[loop-lab] the board was not sent: ${(error as Error).message}`);
            });
          });
        });
        try {
          sending = send();
          await sending;
        } catch (error) {
          stop();
          throw error;
        }
        return stop;
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
