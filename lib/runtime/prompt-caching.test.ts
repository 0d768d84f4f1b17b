import { describe, expect, it } from 'vitest';
import { foldTotals } from '@/lib/protocol';
import { ofType, runToEnd } from '@/lib/testing/run-to-end';

/** Prompt caching through the whole loop: the renderer, the real SDK, the strict simulated vendor, the pricing and the totals. */
describe.each([
  ['anthropic', 'sim-anthropic', 'claude-sim-sonnet'],
  ['openai', 'sim-openai', 'gpt-sim-4o'],
  ['responses', 'sim-openai-responses', 'gpt-sim-5'],
] as const)('prompt caching through the loop (%s dialect)', (dialect, vendor, model) => {
  it('on: later requests read the earlier prefix from the cache and the run costs less for the same tokens; off: nothing is cached', async () => {
    const bodies: Record<'on' | 'off', string[]> = { on: [], off: [] };
    const play = (side: 'on' | 'off') =>
      runToEnd(
        {
          provider: { vendor, model },
          preset: 'codesmith',
          scenario: 'fix-failing-test',
          seed: 3,
          recovery: { cache: { promptCaching: side === 'on' } },
        },
        { onVendorRequest: ({ body }) => bodies[side].push(body) },
      );
    const on = await play('on');
    const off = await play('off');
    const calls = ofType(on, 'llm_call').filter((c) => !c.background);
    const reads = calls.map((c) => c.cache_read_tokens ?? 0);
    // Once the prompt passes the vendor's minimum, each request reads what the one before it sent.
    expect(reads.filter((r) => r > 0).length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < calls.length; i++)
      if (reads[i]! > 0) expect(reads[i]).toBeLessThanOrEqual(calls[i - 1]!.input_tokens);
    if (dialect !== 'anthropic') for (const r of reads) if (r > 0) expect((r - 1024) % 128).toBe(0);
    expect(
      ofType(off, 'llm_call').every(
        (c) => (c.cache_read_tokens ?? 0) === 0 && (c.cache_write_tokens ?? 0) === 0,
      ),
    ).toBe(true);

    const [totalsOn, totalsOff] = [foldTotals(on), foldTotals(off)];
    expect(totalsOn.inputTokens).toBe(totalsOff.inputTokens);
    expect(totalsOn.usd).toBeLessThan(totalsOff.usd);
    expect(totalsOn.cacheSavedUsd).toBeCloseTo(totalsOff.usd - totalsOn.usd, 5);

    // Anthropic's breakpoints are on the wire only with caching on; OpenAI's cache needs no field.
    const marked = (side: 'on' | 'off') => bodies[side].filter((b) => b.includes('"cache_control"')).length;
    if (dialect === 'anthropic') expect(marked('on')).toBe(bodies.on.length);
    expect(marked('off')).toBe(0);
    if (dialect !== 'anthropic') expect(marked('on')).toBe(0);
  });

  // The Responses API's simulated models have no 16k window to overflow.
  it.runIf(dialect !== 'responses')(
    'a compaction that rewrites an early message says where the cached prefix ends, and the next read drops to it',
    async () => {
      const events = await runToEnd({
        provider: { vendor, model: dialect === 'anthropic' ? 'claude-sim-16k' : 'gpt-sim-16k' },
        preset: 'course',
        scenario: 'growing-context',
        seed: 41,
      });
      const stubbing = ofType(events, 'compaction').find((c) => c.cache_kept_messages !== undefined)!;
      expect(stubbing.reason).toContain(
        `invalidates the cached prefix after message ${stubbing.cache_kept_messages}`,
      );
      const calls = ofType(events, 'llm_call').filter((c) => !c.background);
      const before = calls.filter((c) => c.seq < stubbing.seq).at(-1)!;
      const after = calls.find((c) => c.seq > stubbing.seq)!;
      // The request after the stub reads less from the cache than the whole prompt the one before it sent.
      expect(after.cache_read_tokens ?? 0).toBeLessThan(before.input_tokens);
    },
  );
});
