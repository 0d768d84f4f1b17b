import { describe, expect, it } from 'vitest';
import { resolveRecovery, SweepGridSchema } from '@/lib/protocol';
import { expandGrid, listCells } from './expand-grid';
import { quantile, wilsonInterval } from './results-table';

const grid = SweepGridSchema.parse({
  scenarios: ['fix-failing-test', 'huge-log'],
  configurations: [{ id: 'cs', preset: 'codesmith', recovery: { retry: { maxRetries: 5 } } }],
  mechanismsOff: ['retry', 'watchdog'],
  faultPlans: [
    { id: 'none' },
    {
      id: 'o',
      plan: { rules: [{ id: 'o', when: { kind: 'always' }, action: { type: 'http_error', status: 529 } }] },
    },
  ],
  vendors: ['sim-anthropic', 'sim-openai'],
  seeds: { from: 1, to: 3 },
});

describe('expandGrid', () => {
  it('makes one virtual-clock job per cell and seed, in a fixed order, with the mechanism-off rows', () => {
    const jobs = expandGrid(grid);
    expect(jobs).toHaveLength(2 * 3 * 2 * 2 * 3);
    expect(jobs.map((j) => j.index)).toEqual(jobs.map((_, i) => i));
    expect(jobs.every((j) => j.config.clock === 'virtual')).toBe(true);
    expect(listCells(grid).map((c) => c.key)).toEqual([...new Set(jobs.map((j) => j.key))]);
    expect(expandGrid(grid)).toEqual(jobs);

    const noRetry = jobs.find((j) => j.configId === 'cs-no-retry')!;
    const recovery = resolveRecovery(noRetry.config.preset, noRetry.config.recovery);
    expect(recovery.retry.enabled).toBe(false);
    expect(recovery.retry.maxRetries).toBe(5); // the configuration's own override survives
    expect(
      resolveRecovery('codesmith', jobs.find((j) => j.configId === 'cs-no-watchdog')!.config.recovery)
        .watchdog.enabled,
    ).toBe(false);
    expect(noRetry.configLabel).toBe('cs − retry');
  });

  it('refuses duplicate ids and grids past the run limit, naming the field', () => {
    const dup = SweepGridSchema.safeParse({
      configurations: [
        { id: 'a', preset: 'naive' },
        { id: 'a', preset: 'course' },
      ],
      seeds: [1],
    });
    expect(dup.success).toBe(false);
    expect(dup.error?.issues[0]?.path).toEqual(['configurations']);
    const huge = SweepGridSchema.safeParse({
      configurations: [{ id: 'a', preset: 'naive' }],
      seeds: { from: 1, to: 50_000 },
    });
    expect(huge.error?.issues[0]?.message).toMatch(/50000 runs; at most 20000/);
  });
});

describe('table statistics', () => {
  it('interpolates quantiles and gives an honest interval at the extremes', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([10, 20, 30, 40, 50], 0.95)).toBeCloseTo(48);
    const [low, high] = wilsonInterval(5, 5);
    expect(high).toBe(1);
    expect(low).toBeCloseTo(0.566, 2);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });
});
