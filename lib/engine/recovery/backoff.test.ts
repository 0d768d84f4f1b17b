import { describe, expect, it } from 'vitest';
import { createRandom, type Random } from '@/lib/clock';
import { PRESETS } from '@/lib/protocol';
import { computeBackoff, decideWait } from './backoff';

const fixed = (r: number): Random => ({
  next: () => r,
  int: (min) => min,
  pick: (items) => items[0]!,
  fork: () => fixed(r),
});
const codesmith = PRESETS.codesmith.retry;
const s11 = PRESETS.s11.retry;

describe('computeBackoff', () => {
  it('CodeSmith: 1 s × 2ⁿ capped at 60 s; ±10 % symmetric jitter', () => {
    const computed = [0, 1, 2, 3, 4, 5, 6, 7, 20].map((attempt) =>
      computeBackoff({ attempt, config: codesmith, random: fixed(0.5) }),
    );
    expect(computed.map((b) => b.computedMs)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
    expect(computed.map((b) => b.jitteredMs)).toEqual(computed.map((b) => b.computedMs));
    expect(computeBackoff({ attempt: 0, config: codesmith, random: fixed(0) }).jitteredMs).toBe(900);
    expect(computeBackoff({ attempt: 6, config: codesmith, random: fixed(0.999_999) }).jitteredMs).toBe(
      66_000,
    );
  });

  it('s11: min(500·2ⁿ, 32 000) + 0–25 % additive jitter', () => {
    const computed = [0, 1, 2, 3, 4, 5, 6, 7, 9].map((attempt) =>
      computeBackoff({ attempt, config: s11, random: fixed(0) }),
    );
    expect(computed.map((b) => b.computedMs)).toEqual([
      500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 32_000, 32_000,
    ]);
    expect(computed.map((b) => b.jitteredMs)).toEqual(computed.map((b) => b.computedMs));
    expect(computeBackoff({ attempt: 2, config: s11, random: fixed(0.5) }).jitteredMs).toBe(2_250);
  });

  it('jitter stays in its band, uses all of it, and is the same under the same seed', () => {
    for (const [config, lo, hi] of [
      [codesmith, 0.9, 1.1],
      [s11, 1, 1.25],
    ] as const) {
      const random = createRandom(11);
      const ratios = Array.from({ length: 2_000 }, () => {
        const { computedMs, jitteredMs } = computeBackoff({ attempt: 3, config, random });
        return jitteredMs / computedMs;
      });
      expect(Math.min(...ratios)).toBeGreaterThanOrEqual(lo);
      expect(Math.max(...ratios)).toBeLessThanOrEqual(hi);
      expect(Math.min(...ratios)).toBeLessThan(lo + 0.01);
      expect(Math.max(...ratios)).toBeGreaterThan(hi - 0.01);
    }
    const a = [0, 1, 2].map((attempt) =>
      computeBackoff({ attempt, config: codesmith, random: createRandom(5).fork('jitter') }),
    );
    const b = [0, 1, 2].map((attempt) =>
      computeBackoff({ attempt, config: codesmith, random: createRandom(5).fork('jitter') }),
    );
    expect(a).toEqual(b);
  });
});

describe('decideWait', () => {
  it('uses the backoff when there is no Retry-After', () => {
    expect(decideWait({ computedMs: 2_100, config: codesmith })).toEqual({
      waitMs: 2_100,
      honoured: false,
      reason: 'backoff 2.1 s',
    });
  });

  it('honours Retry-After over the backoff, capped at retryAfterCapMs', () => {
    expect(decideWait({ computedMs: 1_000, retryAfterMs: 7_000, config: codesmith })).toEqual({
      waitMs: 7_000,
      honoured: true,
      reason: 'Retry-After 7 s honoured',
    });
    expect(decideWait({ computedMs: 1_000, retryAfterMs: 3 * 86_400_000, config: codesmith })).toEqual({
      waitMs: 86_400_000,
      honoured: true,
      reason: 'Retry-After 72 h capped at 24 h',
    });
    expect(
      decideWait({
        computedMs: 1_000,
        retryAfterMs: 90_000,
        config: { honorRetryAfter: true, retryAfterCapMs: 30_000 },
      }),
    ).toMatchObject({
      waitMs: 30_000,
      honoured: true,
    });
  });

  it('ignores Retry-After when the config says so', () => {
    expect(
      decideWait({
        computedMs: 1_000,
        retryAfterMs: 7_000,
        config: { ...codesmith, honorRetryAfter: false },
      }),
    ).toEqual({
      waitMs: 1_000,
      honoured: false,
      reason: 'backoff 1 s; Retry-After 7 s ignored (not honoured by config)',
    });
  });
});
