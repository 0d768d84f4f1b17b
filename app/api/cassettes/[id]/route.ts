import { errorResponse, HttpError, requestVisitor, visibleCassette } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** One cassette as a file download (the versioned cassette JSON, lib/protocol/cassette.ts). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await params;
    // Room mode: another visitor's is answered as a missing one is.
    const found = await visibleCassette(await requestVisitor(request), id);
    if (!found) throw new HttpError(404, `No cassette with id "${id}"`);
    const file = found.summary.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 100) || 'cassette';
    return new Response(`${JSON.stringify(found.cassette, null, 1)}\n`, {
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="${file}.cassette.json"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
