import { describe, expect, it } from 'vitest';
import { measureConcurrentSweeps } from './concurrent-sweeps';

describe('the concurrent-sweeps bench', () => {
  it('runs at a size where the first sweep ends before the round cancels: only live sweeps are cancelled', async () => {
    // The first sweep is waited for to its last run, so it is over when the round cancels: a
    // cancel of it would be refused (409), as `BENCH_SWEEP_RUNS=100` did with a 100-run wait.
    const result = await measureConcurrentSweeps({ sweeps: 2, runsEach: 3, runFor: 3, afterMs: 0 });
    for (const round of [result.first, result.second]) {
      expect(round.poolsMade).toBe(1);
      expect(round.runsDone).toBeGreaterThanOrEqual(3);
      expect(round.cancelled).toBeLessThanOrEqual(1);
    }
  }, 240_000);
});
