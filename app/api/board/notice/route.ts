import { NoticeBodySchema, RoomNoticeSchema } from '@/lib/protocol/http';
import {
  errorResponse,
  jsonResponse,
  readJson,
  refuseCrossSite,
  requireTeacher,
  sendNotice,
} from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The teacher sends everyone "open this": `{"lesson": slug}` or `{"config": {…}}` (a run config,
 * checked). Every visitor's page shows it as a notice (GET /api/room/notices). 201 with the notice.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    refuseCrossSite({ request });
    await requireTeacher(request);
    const body = NoticeBodySchema.parse(await readJson({ request }), { reportInput: true });
    return jsonResponse(RoomNoticeSchema, await sendNotice(body), { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
