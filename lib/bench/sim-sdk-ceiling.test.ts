import { describe, expect, it } from 'vitest';
import { SweepGridSchema } from '@/lib/protocol';
import { expandGrid } from '@/lib/sweeps/expand-grid';
import { parseWithSdkAlone, recordTrajectory } from './record-trajectory';
import { assertSameBytes, runSimAlone, runSimWithSdk } from './sim-sdk-ceiling';

const overloaded = {
  rules: [
    { id: 'o', when: { kind: 'requests', numbers: [2, 3] }, action: { type: 'http_error', status: 529 } },
  ],
};

const job = (vendor: string) =>
  expandGrid(
    SweepGridSchema.parse({
      configurations: [{ id: 'cs', preset: 'codesmith' }],
      faultPlans: [{ id: 'o', plan: overloaded }],
      vendors: [vendor],
      seeds: [3],
    }),
  )[0]!;

describe('the simulated vendor + SDK floor', () => {
  it.each(['sim-anthropic', 'sim-openai'])(
    'produces every recorded response of a %s run again, byte for byte, injected errors included',
    async (vendor) => {
      const trajectory = await recordTrajectory(job(vendor));
      // The injected overload in the vendor's own words: 529 from Anthropic, 503 from OpenAI.
      expect(trajectory.exchanges.map((x) => x.status)).toContain(vendor === 'sim-anthropic' ? 529 : 503);
      await expect(assertSameBytes(trajectory)).resolves.toBeUndefined();
      // The SDK sees the same stream events as when it parses the recorded bytes alone.
      expect(await runSimWithSdk(trajectory)).toBe(await parseWithSdkAlone(trajectory));
      // Read without the SDK, the vendor sends every recorded byte.
      expect(await runSimAlone(trajectory)).toBe(
        trajectory.exchanges.reduce((n, x) => n + x.chunks.reduce((m, c) => m + c.length, 0), 0),
      );
    },
  );

  it('fails loudly when the work differs: another seed, or one changed byte', async () => {
    const trajectory = await recordTrajectory(job('sim-anthropic'));
    await expect(
      assertSameBytes({ ...trajectory, config: { ...trajectory.config, seed: trajectory.config.seed + 1 } }),
    ).rejects.toThrow(/differs from the run's/);
    const exchanges = trajectory.exchanges.map((x) => ({ ...x, chunks: x.chunks.map((c) => c.slice()) }));
    const last = exchanges.at(-1)!;
    const first = last.chunks[0]!;
    first[0] = first[0]! ^ 1;
    await expect(assertSameBytes({ ...trajectory, exchanges })).rejects.toThrow(/response \d+ differs/);
  });
});
