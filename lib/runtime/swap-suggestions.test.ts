import { describe, expect, it } from 'vitest';
import { REASONING_CONTENT_MISSING } from '@/lib/sim';
import { runToEnd } from '@/lib/testing/run-to-end';
import { suggestSwaps } from './swap-suggestions';

describe('suggested swaps: which targets a naive handover would fail on, and why', () => {
  it('a Claude run with thinking: another Claude model and the DeepSeek-style vendor refuse it naively, the handled rendering passes everywhere', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
      clock: 'virtual',
    });
    const suggested = suggestSwaps(events);
    if (!suggested.ok) throw new Error(suggested.problem);
    expect(suggested).toMatchObject({ vendor: 'sim-anthropic', model: 'claude-sim-sonnet' });
    const of = (vendor: string, model: string) =>
      suggested.targets.find((t) => t.vendor === vendor && t.model === model);
    expect(of('sim-anthropic', 'claude-sim-sonnet')).toBeUndefined();
    expect(of('sim-anthropic', 'claude-sim-haiku')?.naive).toMatchObject({
      accepted: false,
      status: 400,
      message: expect.stringMatching(/Invalid `signature`/),
    });
    expect(of('sim-deepseek', 'deepseek-sim-reasoner')?.naive).toMatchObject({
      accepted: false,
      status: 400,
      message: expect.stringContaining(REASONING_CONTENT_MISSING),
    });
    expect(of('sim-openai', 'gpt-sim-4o')?.naive).toEqual({ accepted: true });
    expect(suggested.targets.every((t) => t.handled?.accepted)).toBe(true);
    expect(of('sim-anthropic', 'claude-sim-haiku')?.dropped).toContainEqual(
      expect.stringMatching(/^\d+ × thinking$/),
    );
    // Naive failures first: the demos worth making.
    const firstAccepted = suggested.targets.findIndex((t) => t.naive?.accepted);
    expect(suggested.targets.slice(0, firstAccepted).every((t) => t.naive?.accepted === false)).toBe(true);
    expect(firstAccepted).toBeGreaterThan(0);
  });

  it('says why there is nothing to judge before a turn has finished', () => {
    expect(suggestSwaps([])).toEqual({ ok: false, problem: 'the log has no run_start event yet' });
  });
});
