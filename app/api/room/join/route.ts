import { JoinRoomBodySchema, JoinedRoomSchema } from '@/lib/protocol/http';
import { errorResponse, joinRoom, jsonResponse, readJson, refuseCrossSite } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Joins the room (room mode, LOOP_LAB_ROOM_CODE): `{"code": …}` → 200 with a session cookie
 * (sealed by iron-session, httpOnly, SameSite=Lax), `teacher: true` for the teacher code; 401 for a wrong code, 404 when this server
 * is not a room. The one /api route open without a session.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    refuseCrossSite({ request });
    const { code } = JoinRoomBodySchema.parse(await readJson({ request }));
    const headers = new Headers();
    const { teacher } = await joinRoom({ request, code, headers });
    return jsonResponse(JoinedRoomSchema, { joined: true, teacher }, { headers });
  } catch (error) {
    return errorResponse(error);
  }
}
