import { describe, expect, it } from 'vitest';
import {
  countSweepJobs,
  presetPolicy,
  resolveRecovery,
  SweepGridSchema,
  type SweepGridInput,
} from '@/lib/protocol';
import { expandGrid, listCells } from './expand-grid';
import { resultsTable } from './results-table';
import { runSweepJob } from './run-sweep-job';

/** One configuration run under two retry policies, where a 400 separates them: CodeSmith's retries it, s11's does not. */
const GRID: SweepGridInput = {
  name: 'two policies',
  configurations: [{ id: 'base', preset: 'codesmith' }],
  policies: [
    { id: 'codesmith', preset: 'codesmith' },
    { id: 's11', label: 'learn-claude-code s11', preset: 's11' },
  ],
  faultPlans: [
    {
      id: 'bad-request',
      plan: {
        rules: [
          { id: 'b', when: { kind: 'requests', numbers: [2] }, action: { type: 'http_error', status: 400 } },
        ],
      },
    },
  ],
  seeds: [1, 2],
};

describe('the sweep policy axis', () => {
  it('runs each configuration once per policy, and the results table keeps them apart', async () => {
    const grid = SweepGridSchema.parse(GRID);
    expect(countSweepJobs(grid)).toBe(4);
    const jobs = expandGrid(grid);
    expect(jobs.map((j) => j.configId)).toEqual([
      'base-policy-codesmith',
      'base-policy-codesmith',
      'base-policy-s11',
      'base-policy-s11',
    ]);
    expect(jobs[2]!.configLabel).toBe('base · policy learn-claude-code s11');
    // The configuration's preset stays; the policy is the named preset's.
    expect(jobs[2]!.config.preset).toBe('codesmith');
    expect(jobs[2]!.config.recovery.policy).toEqual(presetPolicy(resolveRecovery('s11')));

    const metrics = [];
    for (const job of jobs) metrics.push((await runSweepJob({ sweepId: 'policy-axis', job })).metrics);
    const rows = resultsTable({ cells: listCells(grid), metrics });
    expect(rows.map((r) => [r.config, r.runs, r.completion_rate])).toEqual([
      ['base-policy-codesmith', 2, 1],
      ['base-policy-s11', 2, 0],
    ]);
  }, 60_000);

  it('a policy is named by a preset or written out, not both; ids are unique', () => {
    const policy = presetPolicy(resolveRecovery('s11'));
    const both = SweepGridSchema.safeParse({ ...GRID, policies: [{ id: 'x', preset: 's11', policy }] });
    expect(both.success).toBe(false);
    expect(JSON.stringify(both.error?.issues)).toContain('either as a preset name');
    const twice = SweepGridSchema.safeParse({
      ...GRID,
      policies: [
        { id: 'x', preset: 's11' },
        { id: 'x', policy },
      ],
    });
    expect(JSON.stringify(twice.error?.issues)).toContain('appears twice; ids must be unique');
  });

  it('the on/off axis switches the mechanism in a written-out policy too', () => {
    const grid = SweepGridSchema.parse({ ...GRID, mechanismsOff: ['retry', 'fallback'] });
    const jobs = expandGrid(grid);
    const off = jobs.find((j) => j.configId === 'base-policy-s11-no-retry')!;
    expect(off.config.recovery.policy?.foreground.enabled).toBe(false);
    const noFallback = jobs.find((j) => j.configId === 'base-policy-s11-no-fallback')!;
    expect(noFallback.config.recovery.policy?.fallback.enabled).toBe(false);
  });
});
