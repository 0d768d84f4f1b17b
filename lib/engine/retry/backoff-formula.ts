import type { EventOf } from '@/lib/protocol';
import type { computeBackoff } from '../recovery';
import type { BackoffSettings } from '../recovery/backoff';

export type BackoffFormula = NonNullable<EventOf<'retry_scheduled'>['backoff']>;

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** 2 → "²", 12 → "¹²". */
function superscript(n: number): string {
  return String(n)
    .split('')
    .map((d) => SUPERSCRIPT[Number(d)])
    .join('');
}

/** The factor as drawn, to three places without trailing zeros: 0.9412 → "0.941", 1.1 → "1.1". */
function factorText(factor: number): string {
  return String(Number(factor.toFixed(3)));
}

/**
 * The backoff of one retry as the retry_scheduled event carries it: every term of
 * min(base·2ⁿ, cap) × jitter, and the same in words — "1000 × 2² = 4000, cap 60000, jitter ×0.941 → 3765 ms".
 */
export function backoffFormula(
  settings: BackoffSettings,
  backoff: ReturnType<typeof computeBackoff>,
): BackoffFormula {
  const { baseDelayMs, maxDelayMs, jitterMode, jitterRatio } = settings;
  const capped = backoff.exponentialMs > maxDelayMs ? ` → ${maxDelayMs}` : '';
  return {
    base_ms: baseDelayMs,
    exponent: backoff.exponent,
    exponential_ms: backoff.exponentialMs,
    cap_ms: maxDelayMs,
    jitter_mode: jitterMode,
    jitter_ratio: jitterRatio,
    jitter_factor: backoff.factor,
    result_ms: backoff.jitteredMs,
    formula: `${baseDelayMs} × 2${superscript(backoff.exponent)} = ${backoff.exponentialMs}, cap ${maxDelayMs}${capped}, jitter ×${factorText(backoff.factor)} → ${backoff.jitteredMs} ms`,
  };
}
