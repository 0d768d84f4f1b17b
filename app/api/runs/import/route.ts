import { errorResponse, HttpError, readText, refuseCrossSite } from '@/lib/server';
import { getStore, importJsonl } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** JSONL is sent as NDJSON (what the playground sends) or JSON; never a CORS-simple text/plain. */
const IMPORT_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/json'];

/**
 * Imports a JSONL trace sent as the raw body: a Loop Lab export or a plain tracer's file.
 * 400 lists the bad lines by number.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    refuseCrossSite({ request, accept: IMPORT_TYPES });
    const text = await readText({ request });
    const result = importJsonl({ store: getStore(), text });
    if (!result.ok) throw new HttpError(400, 'The trace could not be imported', result.errors);
    return Response.json({ id: result.id }, { status: 201, headers: { Location: `/api/runs/${result.id}` } });
  } catch (error) {
    return errorResponse(error);
  }
}
