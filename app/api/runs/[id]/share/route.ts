import { RevokedSharesSchema, SharedLinkSchema, ShareRunBodySchema } from '@/lib/protocol/http';
import {
  createShare,
  errorResponse,
  jsonResponse,
  readJson,
  refuseCrossSite,
  requestOwnsRun,
  revokeShares,
} from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * A read-only share link of the run: `{}` → 201 `{ token, path }` (`/share/{token}`; the token
 * is shown this once, the server keeps its hash); `{"revoke": true}` → 200 `{ revoked }`, every
 * link of the run ended. Only the run's maker may share it (room mode: another visitor's is a 404).
 */
export async function POST(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    refuseCrossSite({ request });
    const { id } = await params;
    await requestOwnsRun(request, id);
    const body = ShareRunBodySchema.parse(await readJson({ request }), { reportInput: true });
    if (body.revoke) return jsonResponse(RevokedSharesSchema, { revoked: await revokeShares(id) });
    return jsonResponse(SharedLinkSchema, await createShare(id), { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
