import { describe, expect, it } from 'vitest';
import { PRESETS, PRESET_DESCRIPTIONS, resolveRecovery } from './presets';
import { RecoveryConfigSchema, RecoveryOverridesSchema } from './recovery';

/** Each preset's numbers, as its seed states them. */
describe('presets match their seeds', () => {
  it('s11: range(10) attempts, 429/529 only, Retry-After not passed, 500·2ⁿ ≤ 32 s + 0–25 %, output 8,000 → 64,000 then 3 continuations, reactive compact keeping 5', () => {
    const { retry, output, compaction, fallback } = PRESETS.s11;
    expect(retry.maxRetries + 1).toBe(10);
    expect(retry).toMatchObject({
      retryOn: 'rate_limit_overloaded',
      honorRetryAfter: false,
      baseDelayMs: 500,
      maxDelayMs: 32_000,
      jitterMode: 'additive',
      jitterRatio: 0.25,
    });
    expect(output).toMatchObject({
      maxTokens: 8_000,
      escalate: true,
      escalatedMaxTokens: 64_000,
      maxContinuations: 3,
      continueAfterPartial: false,
    });
    expect(compaction).toMatchObject({ reactive: true, reactiveKeepMessages: 5, waterfall: false });
    expect(fallback).toMatchObject({ enabled: true, afterOverloads: 3 });
  });

  it('CodeSmith: 3 retries 1 s → 60 s ±10 %, watchdog 120 s +30 s, 5 stream errors; background 3 retries at 1/2/4 s; no continuation after a Partial', () => {
    const { retry, background, watchdog, output } = PRESETS.codesmith;
    expect(retry).toMatchObject({
      maxRetries: 3,
      baseDelayMs: 1_000,
      maxDelayMs: 60_000,
      jitterMode: 'symmetric',
      jitterRatio: 0.1,
      honorRetryAfter: true,
      retryAfterCapMs: 86_400_000,
      retryOn: 'exclusion',
    });
    expect(background).toEqual({ enabled: true, maxRetries: 3, baseDelayMs: 1_000 });
    expect(watchdog).toMatchObject({ enabled: true, baseMs: 120_000, perRetryMs: 30_000, streamErrorCap: 5 });
    expect(output).toMatchObject({ escalate: false, maxContinuations: 0, continueAfterPartial: false });
  });

  it('every preset says what it reproduces; the two with seeds name where the project differs', () => {
    for (const id of Object.keys(PRESETS) as Array<keyof typeof PRESETS>)
      expect(PRESET_DESCRIPTIONS[id].summary.length).toBeGreaterThan(10);
    expect(PRESET_DESCRIPTIONS.s11.differs).toBeTruthy();
    expect(PRESET_DESCRIPTIONS.codesmith.differs).toBeTruthy();
  });

  it('every preset is a valid recovery config', () => {
    for (const preset of Object.values(PRESETS)) expect(RecoveryConfigSchema.parse(preset)).toEqual(preset);
  });
});

describe('overrides', () => {
  it("an override of one field keeps the preset's other fields (no defaults sneak in)", () => {
    const overrides = RecoveryOverridesSchema.parse({
      retry: { maxRetries: 2 },
      compaction: { thresholdRatio: 0.5 },
    });
    const s11 = resolveRecovery('s11', overrides);
    expect(s11.retry).toMatchObject({ maxRetries: 2, retryOn: 'rate_limit_overloaded' });
    expect(s11.compaction).toMatchObject({ thresholdRatio: 0.5, reactive: true });
  });

  it('a recovery recorded before the newer fields existed still parses, with them off', () => {
    const { output: _o, compaction: _c, ...old } = PRESETS.codesmith;
    const { retryOn: _r, ...oldRetry } = old.retry;
    const parsed = RecoveryConfigSchema.parse({ ...old, retry: oldRetry });
    expect(parsed.retry.retryOn).toBe('transient');
    expect(parsed.compaction.reactive).toBe(false);
    expect(parsed.output.continueAfterPartial).toBe(true);
  });
});
