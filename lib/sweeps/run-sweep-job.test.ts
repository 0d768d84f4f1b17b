import { describe, expect, it } from 'vitest';
import { SweepGridSchema } from '@/lib/protocol';
import { enableCheckResultCache } from '@/lib/tools/check/check-result-cache';
import { expandGrid } from './expand-grid';
import { runSweepJob } from './run-sweep-job';

describe('runSweepJob', () => {
  it('reuses check results on identical workspaces, and the run reads exactly as when the checks ran', async () => {
    const grid = SweepGridSchema.parse({
      configurations: [{ id: 'cs', preset: 'codesmith' }],
      seeds: [1, 2],
    });
    const [first, second] = expandGrid(grid);
    // Turned on as a sweep worker thread's entry does (this file runs in a worker of its own).
    const cache = enableCheckResultCache();
    const ran = await runSweepJob({ sweepId: 'a', job: first! });
    const { misses, hits } = cache;
    expect(misses).toBeGreaterThanOrEqual(1);
    const checks = misses + hits;
    expect(checks).toBeGreaterThanOrEqual(2); // run_check by the model, then the task verdict

    const again = await runSweepJob({ sweepId: 'b', job: first! });
    expect(cache.misses).toBe(misses);
    expect(cache.hits).toBe(hits + checks);
    const body = (log: typeof ran.log) =>
      log.bodies.map((json) => ({ ...(JSON.parse(json) as object), run_id: undefined }));
    expect(body(again.log)).toEqual(body(ran.log));
    expect(again.metrics.verdict).toBe('done');

    // Another seed ends on the same fixed workspace: its checks are answered too.
    await runSweepJob({ sweepId: 'c', job: second! });
    expect(cache.hits).toBeGreaterThan(hits + checks);
  });

  it('runs a job on the simulated Responses API, a sweep vendor like the others', async () => {
    const grid = SweepGridSchema.parse({
      configurations: [{ id: 'cs', preset: 'codesmith' }],
      vendors: ['sim-openai-responses'],
      seeds: [1],
    });
    const [job] = expandGrid(grid);
    const ran = await runSweepJob({ sweepId: 'responses', job: job! });
    expect(ran.metrics.verdict).toBe('done');
    expect(ran.log.bodies.some((json) => json.includes('"vendor":"sim-openai-responses"'))).toBe(true);
  });
});
