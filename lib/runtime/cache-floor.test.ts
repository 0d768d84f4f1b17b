import { describe, expect, it } from 'vitest';
import type { RunConfigInput } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/**
 * The cache-protection floor through the whole loop, on both dialects' strict simulated vendors
 * (which report what each request read from their prompt cache): growing-context on a 16k model.
 * Proactive: the summary at 30 % of the window, reached once the cache is warm. Forced: proactive
 * compaction off and the waterfall aiming at 16 % of the window, so the micro-compact alone cannot
 * recover the overflow and the forced compaction is reached.
 */
const config = (
  vendor: 'sim-anthropic' | 'sim-openai',
  model: string,
  how: 'proactive' | 'forced',
  cache: Record<string, unknown>,
): RunConfigInput => ({
  provider: { vendor, model },
  preset: 'codesmith',
  scenario: 'growing-context',
  seed: 43,
  recovery: {
    compaction: how === 'proactive' ? { thresholdRatio: 0.3 } : { proactive: false, thresholdRatio: 0.16 },
    cache,
  },
});

describe.each([
  ['anthropic', 'sim-anthropic', 'claude-sim-16k'],
  ['openai', 'sim-openai', 'gpt-sim-16k'],
] as const)('the cache-protection floor (%s dialect)', (_dialect, vendor, model) => {
  it('holds a proactive summary back while the cache is warm; the forced compaction bypasses it and says so; with the bypass off the waterfall goes on to its hard trim', async () => {
    const floorTokens = 1024;
    const [noFloor, held, bypass, strict] = await Promise.all([
      runToEnd(config(vendor, model, 'proactive', { protectionFloorTokens: 0 })),
      runToEnd(config(vendor, model, 'proactive', { protectionFloorTokens: floorTokens })),
      runToEnd(
        config(vendor, model, 'forced', { protectionFloorTokens: floorTokens, forcedBypassesFloor: true }),
      ),
      runToEnd(
        config(vendor, model, 'forced', { protectionFloorTokens: floorTokens, forcedBypassesFloor: false }),
      ),
    ]);
    const summaries = (log: typeof noFloor) => ofType(log, 'compaction').filter((c) => c.step === 'summary');
    // No floor: the proactive summary runs at the threshold, and no step mentions a floor.
    expect(summaries(noFloor).some((s) => s.trigger === 'proactive' && s.ok)).toBe(true);
    expect(ofType(noFloor, 'compaction').every((c) => c.cache_floor === undefined)).toBe(true);

    for (const log of [held]) {
      const proactive = summaries(log).filter((s) => s.trigger === 'proactive');
      const cachedBefore = (seq: number) =>
        ofType(log, 'llm_call')
          .filter((c) => !c.background && c.seq < seq)
          .at(-1)?.cache_read_tokens ?? 0;
      // Held back exactly when the request before it read at least the floor from the cache.
      expect(proactive.map((s) => s.cache_floor?.decision ?? 'none')).toEqual(
        proactive.map((s) => (cachedBefore(s.seq) >= floorTokens ? 'held_back' : 'none')),
      );
      const held = proactive.filter((s) => s.cache_floor);
      expect(held.length).toBeGreaterThan(0);
      for (const step of held) {
        expect(step).toMatchObject({
          ok: false,
          cache_floor: {
            decision: 'held_back',
            floor_tokens: floorTokens,
            cached_tokens: cachedBefore(step.seq),
          },
        });
        expect(step.reason).toContain(
          `the last request read ${cachedBefore(step.seq)} tokens from the prompt cache (floor ${floorTokens})`,
        );
        expect(step.reason).toMatch(/the history is sent as it is$/);
      }
      // Held back, the history grows until the vendor says it is too long; the waterfall recovers it.
      expect(ofType(log, 'context_overflow').length).toBeGreaterThan(0);
      expect(terminateOf(log)).toMatchObject({ reason: 'end_turn', complete: true });
    }

    // Bypass on: the overflow's forced compaction runs, and its event says it bypassed the floor.
    const forced = summaries(bypass).filter((s) => s.trigger === 'overflow');
    expect(forced.map((s) => [s.ok, s.cache_floor?.decision])).toEqual([[true, 'bypassed']]);
    expect(forced[0]!.reason).toMatch(
      /^a forced compaction bypasses the cache-protection floor: .*but the prompt no longer fits; \d+ messages? replaced by a summary/,
    );
    expect(ofType(bypass, 'compaction').some((c) => c.step === 'hard_trim')).toBe(false);
    expect(terminateOf(bypass)).toMatchObject({ reason: 'end_turn', complete: true });

    // Bypass off: the floor holds the forced compaction back too, and the hard trim comes next.
    const strictOverflow = ofType(strict, 'compaction').filter(
      (c) => c.trigger === 'overflow' && c.iteration === ofType(strict, 'context_overflow')[0]!.iteration,
    );
    expect(strictOverflow.map((c) => [c.step, c.ok, c.cache_floor?.decision])).toEqual([
      ['micro_compact', true, undefined],
      ['summary', false, 'held_back'],
      ['hard_trim', true, undefined],
    ]);
    expect(strictOverflow[1]!.reason).toMatch(/the waterfall goes on to its next rung$/);
  });
});
