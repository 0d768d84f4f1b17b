import { CreatedSchema } from '@/lib/protocol/http';
import {
  claimFor,
  errorResponse,
  HttpError,
  jsonResponse,
  knownKeysRedactor,
  readText,
  refuseCrossSite,
  requestVisitor,
} from '@/lib/server';
import { getStore, importJsonl } from '@/lib/store';
import { looksLikeOtlp, otlpToTracerJsonl } from '@/lib/otel/otlp-to-tracer-jsonl';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** JSONL is sent as NDJSON (what the playground sends) or JSON; never a CORS-simple text/plain. */
const IMPORT_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/json'];

/**
 * Imports a trace sent as the raw body: a Loop Lab JSONL export, a plain tracer's file, or
 * OTLP/JSON with GenAI spans (GET /api/runs/:id/otel, or another agent's), with every key the
 * server knows redacted from every event before it is stored. 400 lists what is wrong.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    refuseCrossSite({ request, accept: IMPORT_TYPES });
    const visitor = await requestVisitor(request);
    let text = await readText({ request });
    // The server's keys (every *_API_KEY it holds, and each key a request has sent it) never get
    // into the store by way of a trace, nor into an error that quotes the file (a key used as a
    // property name is a path).
    const redactor = knownKeysRedactor();
    if (looksLikeOtlp(text)) {
      const converted = otlpToTracerJsonl(text);
      if (!converted.ok)
        throw new HttpError(400, 'The OTLP trace could not be imported', converted.errors.map(redactor.text));
      text = converted.jsonl;
    }
    const result = await importJsonl({ store: getStore(), text, redactor });
    if (!result.ok)
      throw new HttpError(400, 'The trace could not be imported', result.errors.map(redactor.text));
    await claimFor(visitor, 'run', result.id);
    return jsonResponse(
      CreatedSchema,
      { id: result.id },
      { status: 201, headers: { Location: `/api/runs/${result.id}` } },
    );
  } catch (error) {
    return errorResponse(error);
  }
}
