import { validateRunConfig } from '@/lib/runtime/validate-config';
import { CreatedSchema, CreateRunBodySchema, ListRunsQuerySchema, RunSummaryListSchema } from '@/lib/protocol/http';
import { errorResponse, getRunRegistry, HttpError, jsonResponse, readJson, refuseCrossSite } from '@/lib/server';
import { checkPromptSetRef, getPromptSetStore, getStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Starts a run; the browser then subscribes to GET /api/runs/{id}/events. */
export async function POST(request: Request): Promise<Response> {
  try {
    refuseCrossSite({ request });
    const { config, apiKey } = CreateRunBodySchema.parse(await readJson({ request }));
    // Beyond the schema: does this installation have the scenario, the model, the key?
    const problems = [
      ...validateRunConfig({ config, ...(apiKey ? { apiKey } : {}) }),
      ...checkPromptSetRef({ config, store: getPromptSetStore() }),
    ];
    if (problems.length > 0) {
      throw new HttpError(400, 'The run config cannot run here', problems.map((p) => (p.startsWith('apiKey') ? p : `config.${p}`)));
    }
    const { id } = getRunRegistry().startRun({ config, ...(apiKey ? { apiKey } : {}) });
    return jsonResponse(CreatedSchema, { id }, { status: 201, headers: { Location: `/api/runs/${id}` } });
  } catch (error) {
    return errorResponse(error);
  }
}

/** Runs, newest first: an array of RunSummary (lib/store). */
export async function GET(request: Request): Promise<Response> {
  try {
    const { limit } = ListRunsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    return jsonResponse(RunSummaryListSchema, getStore().listRuns({ limit }));
  } catch (error) {
    return errorResponse(error);
  }
}
