import { CreatedSchema, RerunSweepBodySchema } from '@/lib/protocol/http';
import {
  admitSweep,
  claimFor,
  getSweepRegistry,
  HttpError,
  jsonResponse,
  ownedPost,
  visiblePromptSets,
  type IdContext,
} from '@/lib/server';
import { getCassetteStore, getPromptSetStore, getSweepStore } from '@/lib/store';
import { sweepRunnerKind } from '@/lib/sweeps/create-sweep-runner';
import { rerunGrid, RerunError } from '@/lib/sweeps/rerun-failed';
import { storedSweepCassettes } from '@/lib/sweeps/sweep-cassettes';
import { readPromptSets } from '@/lib/sweeps/expand-grid';
import { validateSweepGrid } from '@/lib/sweeps/validate-grid';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Starts a new sweep of only what failed in this one (errors, timeouts, outages, jobs that never
 * ran; lib/sweeps/rerun-failed.ts), its grid naming this sweep (`rerun.of`): 201 with its id;
 * 409 while this one still runs; 400 when nothing failed or a recording is missing.
 */
export async function POST(request: Request, context: IdContext): Promise<Response> {
  const options = { request, context, kind: 'sweep' as const, schema: RerunSweepBodySchema };
  return ownedPost(options, async ({ id, visitor, body: { fromCassettes, apiKeys } }) => {
    const record = await getSweepStore().getSweep(id);
    if (!record) throw new HttpError(404, `No sweep with id "${id}"`);
    const status = (await getSweepRegistry().read(id))?.sweep.status ?? record.summary.status;
    if (status === 'running' || status === 'queued')
      throw new HttpError(409, `Sweep ${id} is still ${status}: re-run what failed once it has ended`);
    const recorded = fromCassettes
      ? await storedSweepCassettes(getCassetteStore()).recordedRuns()
      : undefined;
    const metrics = await getSweepStore().readSweepMetrics(id);
    let grid;
    try {
      grid = rerunGrid({
        id,
        name: record.summary.name,
        grid: record.grid,
        metrics,
        fromCassettes,
        hasRecording: (runId) => recorded?.has(runId) ?? false,
      });
    } catch (error) {
      if (error instanceof RerunError) throw new HttpError(400, 'Nothing to re-run', [error.message]);
      throw error;
    }
    const promptSets = visiblePromptSets(visitor, getPromptSetStore());
    const problems = validateSweepGrid(grid, {
      ...(apiKeys ? { apiKeys } : {}),
      runnerKind: sweepRunnerKind(),
      promptSets: await readPromptSets(grid, (ref) => promptSets.getPromptSet(ref.name, ref.version)),
    });
    if (problems.length > 0) throw new HttpError(400, 'The re-run cannot run here', problems);
    if (visitor !== null) admitSweep(visitor, grid.rerun!.jobs.length);
    const started = await getSweepRegistry().start(grid, apiKeys ? { apiKeys } : {});
    await claimFor(visitor, 'sweep', started.id);
    return jsonResponse(
      CreatedSchema,
      { id: started.id },
      { status: 201, headers: { Location: `/api/sweeps/${started.id}` } },
    );
  });
}
