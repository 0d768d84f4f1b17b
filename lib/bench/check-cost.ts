import { DEFAULT_SANDBOX_LIMITS } from '@/lib/tools/check/sandbox-limits';
import { runNodeTests } from '@/lib/tools/check/run-node-tests';
import { createWorkspace, getScenario } from '@/lib/tools';
import { median, percentile } from './stats';

/**
 * Wall time of one run_check on the default scenario: from the warm pool (a child already
 * booted), and with a fresh child spawned for the check (a heap cap other than the default
 * bypasses the pool). Sequential, so each figure is one check's latency, not throughput.
 */
export async function measureCheckCost(options: {
  checks: number;
}): Promise<{ pooledMs: number; pooledP95Ms: number; freshMs: number; freshP95Ms: number }> {
  const scenario = getScenario('fix-failing-test')!;
  const workspace = createWorkspace({ files: scenario.files });
  const entries = ['test/slugify.test.js'];
  const time = async (heapMb: number): Promise<number[]> => {
    const took: number[] = [];
    for (let i = 0; i < options.checks; i++) {
      const started = performance.now();
      const result = await runNodeTests({ workspace, entries, limits: { heapMb } });
      if (result.stopped) throw new Error(`bench check stopped: ${result.output}`);
      took.push(performance.now() - started);
      // Let the pool boot its replacement, as the model's thinking time would in a run.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    return took;
  };
  const pooled = await time(DEFAULT_SANDBOX_LIMITS.heapMb);
  const fresh = await time(DEFAULT_SANDBOX_LIMITS.heapMb + 1);
  return {
    pooledMs: median(pooled),
    pooledP95Ms: percentile(pooled, 95),
    freshMs: median(fresh),
    freshP95Ms: percentile(fresh, 95),
  };
}
