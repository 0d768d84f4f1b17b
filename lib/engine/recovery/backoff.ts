import type { Random } from '@/lib/clock';
import { formatMs, type RecoveryConfig } from '@/lib/protocol';

type RetryConfig = RecoveryConfig['retry'];

export type BackoffSettings = Pick<RetryConfig, 'baseDelayMs' | 'maxDelayMs' | 'jitterMode' | 'jitterRatio'>;
type WaitSettings = Pick<RetryConfig, 'honorRetryAfter' | 'retryAfterCapMs'>;

/**
 * Exponential backoff with jitter; the jitter spreads a crowd of clients so they do not
 * retry in lockstep (the thundering herd). `attempt` is n in base·2ⁿ: 0 for the first retry.
 *   symmetric (CodeSmith): min(base·2ⁿ, max) × (1 ± ratio), e.g. 1 s, 2 s, 4 s ±10 %
 *   additive (s11):        min(base·2ⁿ, max) × (1 + [0, ratio]), e.g. 500 ms … 32 s +0–25 %
 * Jitter is applied after the cap, as both sources do. Exactly one draw per call.
 */
export function computeBackoff(options: { attempt: number; config: BackoffSettings; random: Random }): {
  /** n in base·2ⁿ. */
  exponent: number;
  /** base·2ⁿ, before the cap. */
  exponentialMs: number;
  /** min(base·2ⁿ, max). */
  computedMs: number;
  /** The jitter drawn: the factor the capped delay is multiplied by. */
  factor: number;
  jitteredMs: number;
} {
  const { attempt, config, random } = options;
  const n = Math.max(0, Math.floor(attempt));
  const exponentialMs = config.baseDelayMs * 2 ** n;
  const computedMs = Math.min(exponentialMs, config.maxDelayMs);
  const r = random.next();
  const factor =
    config.jitterMode === 'symmetric' ? 1 + config.jitterRatio * (2 * r - 1) : 1 + config.jitterRatio * r;
  return { exponent: n, exponentialMs, computedMs, factor, jitteredMs: Math.round(computedMs * factor) };
}

/**
 * How long to wait before the next attempt: the server's Retry-After when present and
 * honoured (capped: a hint of "a week" must not park a run for a week), else the backoff.
 */
export function decideWait(options: {
  computedMs: number;
  retryAfterMs?: number | undefined;
  config: WaitSettings;
}): {
  waitMs: number;
  honoured: boolean;
  reason: string;
} {
  const { computedMs, retryAfterMs, config } = options;
  if (retryAfterMs === undefined) {
    return { waitMs: computedMs, honoured: false, reason: `backoff ${formatMs(computedMs)}` };
  }
  if (!config.honorRetryAfter) {
    return {
      waitMs: computedMs,
      honoured: false,
      reason: `backoff ${formatMs(computedMs)}; Retry-After ${formatMs(retryAfterMs)} ignored (not honoured by config)`,
    };
  }
  if (retryAfterMs > config.retryAfterCapMs) {
    return {
      waitMs: config.retryAfterCapMs,
      honoured: true,
      reason: `Retry-After ${formatMs(retryAfterMs)} capped at ${formatMs(config.retryAfterCapMs)}`,
    };
  }
  return { waitMs: retryAfterMs, honoured: true, reason: `Retry-After ${formatMs(retryAfterMs)} honoured` };
}
