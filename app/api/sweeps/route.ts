import {
  CreatedSchema,
  CreateSweepBodySchema,
  ListSweepsQuerySchema,
  SweepSummaryListSchema,
} from '@/lib/protocol/http';
import {
  admitSweep,
  claimFor,
  errorResponse,
  getSweepRegistry,
  HttpError,
  jsonResponse,
  knownKeysRedactor,
  ownRows,
  readJson,
  refuseCrossSite,
  requestVisitor,
  visiblePromptSets,
} from '@/lib/server';
import { getPromptSetStore } from '@/lib/store';
import { sweepRunnerKind } from '@/lib/sweeps/create-sweep-runner';
import { validateSweepGrid } from '@/lib/sweeps/validate-grid';
import { expandGrid, readPromptSets } from '@/lib/sweeps/expand-grid';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Starts a sweep; the browser then follows GET /api/sweeps/{id}/events. */
export async function POST(request: Request): Promise<Response> {
  try {
    refuseCrossSite({ request });
    const visitor = await requestVisitor(request);
    const promptSets = visiblePromptSets(visitor, getPromptSetStore());
    const { apiKeys, ...grid } = CreateSweepBodySchema.parse(await readJson({ request }), {
      reportInput: true,
    });
    const lookup = await readPromptSets(grid, (ref) => promptSets.getPromptSet(ref.name, ref.version));
    const problems = validateSweepGrid(grid, {
      ...(apiKeys ? { apiKeys } : {}),
      runnerKind: sweepRunnerKind(),
      promptSets: lookup,
    });
    if (problems.length > 0) throw new HttpError(400, 'The grid cannot run here', problems);
    if (visitor !== null) admitSweep(visitor, expandGrid(grid, { promptSets: lookup }).length);
    // The keys stay in this process's memory: never in its row, a run's config, an event or a
    // queued job. The grid's texts (its name, labels, fault plans) are redacted of every key the
    // server knows before anything is made of them.
    const { id } = await getSweepRegistry().start(
      knownKeysRedactor().value(grid),
      apiKeys ? { apiKeys } : {},
    );
    await claimFor(visitor, 'sweep', id);
    return jsonResponse(CreatedSchema, { id }, { status: 201, headers: { Location: `/api/sweeps/${id}` } });
  } catch (error) {
    return errorResponse(error);
  }
}

/** Sweeps, newest first (the live progress and queue place of this process's sweeps). */
export async function GET(request: Request): Promise<Response> {
  try {
    const { limit } = ListSweepsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    // Room mode: the visitor's own (the newest `limit` of them).
    const visitor = await requestVisitor(request);
    if (visitor === null)
      return jsonResponse(SweepSummaryListSchema, await getSweepRegistry().list({ limit }));
    const own = await ownRows(
      visitor,
      'sweep',
      await getSweepRegistry().list({ limit: 100_000 }),
      (s) => s.id,
    );
    return jsonResponse(SweepSummaryListSchema, own.slice(0, limit));
  } catch (error) {
    return errorResponse(error);
  }
}
