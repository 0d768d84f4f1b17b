import { CassetteSchema } from '@/lib/protocol';
import { CassetteListSchema, CassetteSummarySchema, ImportCassetteBodySchema } from '@/lib/protocol/http';
import { cassetteList, claimFor, errorResponse, jsonResponse, knownKeysRedactor, MAX_BODY_BYTES, readJson, refuseCrossSite, requestVisitor } from '@/lib/server';
import { getCassetteStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Every cassette a run can replay: the shipped ones, then the saved and imported ones (CassetteListSchema). */
export async function GET(request?: Request): Promise<Response> {
  try {
    // Room mode: the shipped cassettes and the visitor's own.
    const visitor = await requestVisitor(request);
    return jsonResponse(CassetteListSchema, await cassetteList(visitor));
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * Imports a cassette file under a name: 201 with its summary. Every key the server knows (its
 * environment's, and each one a request has sent it) is removed from it on the way in — its
 * name, its source and note, every exchange — in every form the run log's redaction knows
 * (backwards and split included), as a trace import does, so a file quoting a key stores `[redacted]`.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    refuseCrossSite({ request });
    const visitor = await requestVisitor(request);
    const body = ImportCassetteBodySchema.parse(await readJson({ request, maxBytes: MAX_BODY_BYTES }), { reportInput: true });
    const redactor = knownKeysRedactor();
    const cassette = CassetteSchema.parse(redactor.value(body.cassette), { reportInput: true });
    const saved = await getCassetteStore().saveCassette({ name: redactor.text(body.name), cassette });
    await claimFor(visitor, 'cassette', saved.id);
    return jsonResponse(CassetteSummarySchema, saved, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
