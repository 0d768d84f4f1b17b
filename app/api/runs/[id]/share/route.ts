import { RevokedSharesSchema, SharedLinkSchema, ShareRunBodySchema } from '@/lib/protocol/http';
import { createShare, jsonResponse, ownedPost, revokeShares, type IdContext } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * A read-only share link of the run: `{}` → 201 `{ token, path }` (`/share/{token}`; the token
 * is shown this once, the server keeps its hash); `{"revoke": true}` → 200 `{ revoked }`, every
 * link of the run ended. Only the run's maker may share it (room mode: another visitor's is a 404).
 */
export async function POST(request: Request, context: IdContext): Promise<Response> {
  return ownedPost({ request, context, kind: 'run', schema: ShareRunBodySchema }, async ({ id, body }) => {
    if (body.revoke) return jsonResponse(RevokedSharesSchema, { revoked: await revokeShares(id) });
    return jsonResponse(SharedLinkSchema, await createShare(id), { status: 201 });
  });
}
