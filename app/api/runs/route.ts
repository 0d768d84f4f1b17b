import { validateRunConfig } from '@/lib/runtime/validate-config';
import { warmUp } from '@/lib/runtime/warm-up';
import type { RunEvent } from '@/lib/protocol';
import {
  CreatedRunSchema,
  CreateRunBodySchema,
  ListRunsQuerySchema,
  RunSummaryListSchema,
} from '@/lib/protocol/http';
import {
  errorResponse,
  forkProblem,
  admitRuns,
  checkTaskUpload,
  claimFor,
  getRunRegistry,
  HttpError,
  jsonResponse,
  readJson,
  refuseCrossSite,
  requestVisitor,
  resolveFork,
  visibleCassette,
  visiblePromptSets,
  visibleRuns,
} from '@/lib/server';
import { checkPromptSetRef, getPromptSetStore, getStore, getVisitorStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Starts a run (or a fork of a stored one); the browser then subscribes to GET /api/runs/{id}/events. */
export async function POST(request: Request): Promise<Response> {
  try {
    refuseCrossSite({ request });
    // Room mode: whose run this is; a fork, a prompt set or a cassette must be theirs.
    const visitor = await requestVisitor(request);
    const body = CreateRunBodySchema.parse(await readJson({ request }), { reportInput: true });
    const { apiKey } = body;
    // A fork: the parent's config moved to the chosen vendor, and its trajectory up to the turn.
    // A running parent's latest events may still wait to be written: the fork reads the store.
    if (body.fork) await getRunRegistry().writePending(body.fork.runId);
    const forked = body.fork
      ? await resolveFork({
          store: visibleRuns(visitor, getStore()),
          spec: body.fork,
          keySent: apiKey !== undefined,
        })
      : undefined;
    const config = forked?.config ?? body.config!;
    // Beyond the schema: does this installation have the scenario, the model, the key?
    const problems = [
      ...validateRunConfig({ config, ...(apiKey ? { apiKey } : {}) }),
      ...(await checkPromptSetRef({ config, store: visiblePromptSets(visitor, getPromptSetStore()) })),
      // An uploaded task: the visitor's own, with the files the config pins.
      ...(await checkTaskUpload(visitor, config)),
    ];
    if (problems.length > 0) {
      throw new HttpError(
        400,
        'The run config cannot run here',
        problems.map((p) => (forked ? forkProblem(p) : p.startsWith('apiKey') ? p : `config.${p}`)),
      );
    }
    // A replay is served from a cassette the server has: shipped, saved or imported.
    const cassette = config.replay ? await visibleCassette(visitor, config.replay.cassette) : undefined;
    if (config.replay) {
      if (!cassette)
        throw new HttpError(400, 'The run config cannot run here', [
          `config.replay.cassette: no cassette "${config.replay.cassette}"; GET /api/cassettes lists them`,
        ]);
      if (cassette.cassette.source.vendor !== config.provider.vendor) {
        throw new HttpError(400, 'The run config cannot run here', [
          `config.provider.vendor: the cassette was recorded from ${cassette.cassette.source.vendor}; a replay speaks its dialect, so choose that vendor`,
        ]);
      }
    }
    // A real-clock run starts its clock only once the process's one-time costs are paid, so the
    // first run after a server start does not report them as model latency.
    if (config.clock === 'real') await warmUp();
    const registry = getRunRegistry();
    // Room mode: admitted within the visitor's limits, and counted as theirs before the next start is.
    const id = await admitRuns(visitor, 1, async () => {
      const { id } = await registry.startRun({
        config,
        ...(apiKey ? { apiKey } : {}),
        ...(forked ? { fork: forked.fork } : {}),
        ...(cassette ? { cassette: cassette.cassette } : {}),
      });
      await claimFor(visitor, 'run', id);
      return id;
    });
    // The events so far (redacted like every event): the page paints them without waiting for its stream.
    const events: RunEvent[] = [];
    const unsubscribe = await registry.subscribe({
      runId: id,
      listener: { onEvent: (event) => events.push(event), onEnd: () => {} },
    });
    unsubscribe();
    return jsonResponse(
      CreatedRunSchema,
      { id, events },
      { status: 201, headers: { Location: `/api/runs/${id}` } },
    );
  } catch (error) {
    return errorResponse(error);
  }
}

/** Runs, newest first: an array of RunSummary (lib/store). */
export async function GET(request: Request): Promise<Response> {
  try {
    const { limit } = ListRunsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    const visitor = await requestVisitor(request);
    if (visitor === null) return jsonResponse(RunSummaryListSchema, await getStore().listRuns({ limit }));
    const store = getStore();
    const own = [];
    for (const id of await getVisitorStore().runIdsOf(visitor, limit)) {
      const record = await store.getRun(id);
      if (record) own.push(record.summary);
    }
    return jsonResponse(RunSummaryListSchema, own);
  } catch (error) {
    return errorResponse(error);
  }
}
