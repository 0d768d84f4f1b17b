import { describe, expect, it } from 'vitest';
import { SweepGridSchema, type SweepRunMetrics } from '@/lib/protocol';
import { expandGrid, listCells } from './expand-grid';
import { failedJobs, rerunGrid } from './rerun-failed';

const GRID = SweepGridSchema.parse({
  name: 'naive vs codesmith',
  configurations: [
    { id: 'codesmith', preset: 'codesmith' },
    { id: 'naive', preset: 'naive' },
  ],
  seeds: { from: 1, to: 3 },
});

function run(job: number, complete: boolean, reason: string): SweepRunMetrics {
  return {
    job,
    run_id: `s-${job}`,
    key: 'k',
    seed: 1,
    complete,
    reason,
    verdict: complete ? 'done' : 'not_done',
    duration_ms: 1,
    input_tokens: 0,
    output_tokens: 0,
    usd: 0,
    attempts: 1,
    failed_attempts: 0,
    wasted_tokens: 0,
    wasted_usd: 0,
    errors_seen: 0,
  };
}

// Six jobs: 0 done, 1 an outage, 2 a model error, 3 out of iterations (a result), 4 a timeout, 5 never ran.
const METRICS = [
  run(0, true, 'end_turn'),
  run(1, false, 'retries_exhausted'),
  run(2, false, 'model_error'),
  run(3, false, 'max_iterations'),
  run(4, false, 'run_time_budget'),
];

describe('what failed in a sweep', () => {
  it('is each error, outage and timeout, and each job that never ran; a result of the configuration is not', () => {
    expect(failedJobs(GRID, METRICS)).toEqual([
      {
        job: 1,
        reason: 'retries_exhausted: the endpoint kept failing until the retries ran out (an outage)',
      },
      { job: 2, reason: 'model_error: a model call failed with an error no retry absorbed' },
      { job: 4, reason: 'run_time_budget: the run timed out (its run-time budget)' },
      { job: 5, reason: 'never ran: the sweep ended before it' },
    ]);
  });

  it('makes a grid of only those jobs, under their indices in the full grid, naming the sweep it re-runs', () => {
    const grid = rerunGrid({ id: 'sweep-a', name: 'naive vs codesmith', grid: GRID, metrics: METRICS });
    expect(grid.name).toBe('re-run of naive vs codesmith: 4 failed');
    expect(grid.rerun?.of).toBe('sweep-a');
    const parsed = SweepGridSchema.parse(grid);
    const full = expandGrid(GRID);
    const jobs = expandGrid(parsed);
    expect(jobs.map((j) => j.index)).toEqual([1, 2, 4, 5]);
    for (const job of jobs) expect(job.config).toEqual(full[job.index]!.config);
    // Its table holds the cells of those jobs only: naive's (jobs 3–5) and codesmith's (1, 2).
    expect(listCells(parsed).map((c) => c.configId)).toEqual(['codesmith', 'naive']);
    const naiveOnly = SweepGridSchema.parse({ ...grid, rerun: { of: 's', jobs: [{ job: 4, reason: 'x' }] } });
    expect(listCells(naiveOnly).map((c) => c.configId)).toEqual(['naive']);
    // A re-run of the re-run looks only at its own jobs.
    const again = failedJobs(parsed, [run(1, true, 'end_turn'), run(2, false, 'model_error')]);
    expect(again.map((j) => j.job)).toEqual([2, 4, 5]);
  });

  it('refuses when nothing failed, and from cassettes where no run kept a recording', () => {
    const fine = [0, 1, 2, 3, 4, 5].map((job) => run(job, true, 'end_turn'));
    expect(() => rerunGrid({ id: 's', name: 'n', grid: GRID, metrics: fine })).toThrow(/nothing failed/);
    expect(() =>
      rerunGrid({ id: 's', name: 'n', grid: GRID, metrics: METRICS, fromCassettes: true }),
    ).toThrow(/only a real endpoint’s runs keep recordings/);
    const endpoint = SweepGridSchema.parse({
      ...GRID,
      vendors: [],
      endpoints: [
        { id: 'local', vendor: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', keySource: 'env' },
      ],
      models: ['m'],
    });
    const kept = new Set(['s-1', 's-2', 's-4']);
    expect(() =>
      rerunGrid({
        id: 's',
        name: 'n',
        grid: endpoint,
        metrics: METRICS,
        fromCassettes: true,
        hasRecording: (id) => kept.has(id),
      }),
    ).toThrow('fromCassettes: no recording of job 5 (a job that never ran, or sent nothing, keeps none)');
    kept.add('s-5');
    const replay = rerunGrid({
      id: 's',
      name: 'n',
      grid: endpoint,
      metrics: METRICS,
      fromCassettes: true,
      hasRecording: (id) => kept.has(id),
    });
    expect(replay.replayFrom).toBe('s');
  });

  it('is refused by the grid schema for a job the grid does not make', () => {
    const bad = SweepGridSchema.safeParse({ ...GRID, rerun: { of: 's', jobs: [{ job: 6, reason: 'x' }] } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('job 6 is not in the grid, which makes 6 runs (0 to 5)');
  });
});
