import { BoardSchema } from '@/lib/protocol/http';
import { boardNow, errorResponse, jsonResponse, requireTeacher } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The teacher's board now (lib/server/room-board.ts): a teacher session only; a visitor's is a 403. */
export async function GET(request: Request): Promise<Response> {
  try {
    await requireTeacher(request);
    return jsonResponse(BoardSchema, await boardNow());
  } catch (error) {
    return errorResponse(error);
  }
}
