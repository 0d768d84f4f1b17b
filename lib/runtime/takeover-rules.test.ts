import { describe, expect, it } from 'vitest';
import type { RunConfigInput, TakeoverRule } from '@/lib/protocol';
import { REASONING_CONTENT_MISSING } from '@/lib/sim';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/** Each takeover safeguard switched off alone, on the strict simulated vendors: the vendor's real error. */
function swapWithRuleOff(
  rule: TakeoverRule | undefined,
  route: {
    provider: RunConfigInput['provider'];
    swaps: readonly NonNullable<RunConfigInput['swaps']>[number][];
  },
) {
  return runToEnd({
    provider: route.provider,
    swaps: [...route.swaps],
    takeover: rule ? { rulesOff: [rule] } : {},
  });
}

const SONNET_TO_HAIKU = {
  provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
  swaps: [{ atTurn: 3, vendor: 'sim-anthropic', model: 'claude-sim-haiku' }],
} as const;
const OPENAI_TO_DEEPSEEK = {
  provider: { vendor: 'sim-openai' },
  swaps: [{ atTurn: 3, vendor: 'sim-deepseek', model: '' }],
} as const;
const GPT5_TO_MINI = {
  provider: { vendor: 'sim-openai-responses', model: 'gpt-sim-5', thinking: true },
  swaps: [{ atTurn: 3, vendor: 'sim-openai-responses', model: 'gpt-sim-5-mini' }],
} as const;

describe('takeover safeguards, each switched off alone', () => {
  it('credentials off: the other model’s thinking signatures go out, and Anthropic refuses them', async () => {
    const events = await swapWithRuleOff('credentials', SONNET_TO_HAIKU);
    const [report] = ofType(events, 'takeover_report');
    expect(report?.handling.rulesOff).toEqual(['credentials']);
    expect(
      report?.as_is?.some((c) =>
        c.includes(
          'credentials rule off: thinking block sent with the signature sim-anthropic/claude-sim-sonnet minted',
        ),
      ),
    ).toBe(true);
    const error = ofType(events, 'model_error')[0];
    expect(error).toMatchObject({ iteration: 3, status: 400, vendor_type: 'invalid_request_error' });
    expect(error?.message).toMatch(/Invalid `signature` in `thinking` block/);
    // Resent within CodeSmith's budget (its exclusion rule), refused each time.
    expect(terminateOf(events)).toMatchObject({ reason: 'retries_exhausted', complete: false });
  });

  it('latest-turn rule off: signatures still dropped, but thinking stays on for a tool round that began without it, and Anthropic refuses that', async () => {
    const events = await swapWithRuleOff('latest_turn', SONNET_TO_HAIKU);
    const [report] = ofType(events, 'takeover_report');
    expect(report?.handling.rulesOff).toEqual(['latest_turn']);
    expect(report?.dropped.some((d) => d.kind === 'thinking_config')).toBe(false);
    const error = ofType(events, 'model_error')[0];
    expect(error).toMatchObject({ iteration: 3, status: 400 });
    expect(error?.message).toMatch(/thinking/);
    expect(error?.message).not.toMatch(/Invalid `signature`/);
    expect(terminateOf(events).complete).toBe(false);
  });

  it('reasoning placeholder off: the DeepSeek-style vendor gets tool-call turns without reasoning_content and refuses them', async () => {
    const events = await swapWithRuleOff('reasoning_placeholder', OPENAI_TO_DEEPSEEK);
    expect(ofType(events, 'takeover_report')[0]?.handling.rulesOff).toEqual(['reasoning_placeholder']);
    const error = ofType(events, 'model_error')[0];
    expect(error).toMatchObject({ iteration: 3, status: 400 });
    expect(error?.message).toContain(REASONING_CONTENT_MISSING);
  });

  it('handles off: gpt-sim-5’s stored response is named to gpt-sim-5-mini, which does not hold it, and the Responses API refuses it', async () => {
    const events = await swapWithRuleOff('handles', GPT5_TO_MINI);
    const [report] = ofType(events, 'takeover_report');
    expect(report?.handling.rulesOff).toEqual(['handles']);
    expect(
      report?.as_is?.some((c) =>
        c.includes('handles rule off: message held by sim-openai-responses/gpt-sim-5, sent by its reference'),
      ),
    ).toBe(true);
    expect(report?.converted.some((c) => c.includes('re-sent by value'))).toBe(false);
    const error = ofType(events, 'model_error')[0];
    expect(error).toMatchObject({ iteration: 3, status: 400 });
    expect(error?.message).toMatch(/previous response/i);
    expect(terminateOf(events).complete).toBe(false);
  });

  it('naive leaves the handles safeguard on: the history goes by value, and the foreign reasoning is what the vendor refuses', async () => {
    const events = await runToEnd({
      provider: GPT5_TO_MINI.provider,
      swaps: [...GPT5_TO_MINI.swaps],
      takeover: { naive: true },
    });
    expect(ofType(events, 'takeover_report')[0]?.converted.some((c) => c.includes('re-sent by value'))).toBe(
      true,
    );
    expect(ofType(events, 'model_error')[0]?.message).not.toMatch(/previous response/i);
  });

  it('every safeguard on: the swaps are accepted', async () => {
    for (const route of [SONNET_TO_HAIKU, OPENAI_TO_DEEPSEEK, GPT5_TO_MINI]) {
      const events = await swapWithRuleOff(undefined, route);
      expect(ofType(events, 'model_error')).toEqual([]);
      expect(terminateOf(events).complete).toBe(true);
    }
  });
});
