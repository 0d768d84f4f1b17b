import { formatMs } from '@/lib/protocol/format-duration';
import type { BreakerState } from '@/lib/protocol';

export type BreakerVerdict =
  { allowed: true; probe: boolean } | { allowed: false; reopenAt: number; reason: string };

export interface BreakerTransition {
  state: BreakerState;
  consecutiveFailures: number;
  reopenAt?: number;
  reason: string;
}

/**
 * A circuit breaker for recovery that itself calls the model (the summary call): after
 * `failures` consecutive failures it opens and refuses calls, so a broken summarizer does not
 * burn money in a chain; after `cooldownMs` of run time one call may probe (half-open), and
 * its outcome closes or re-opens it. Pure: the caller passes the run clock's time and emits
 * the transitions it gets back.
 */
export class CircuitBreaker {
  private current: BreakerState = 'closed';
  private failures = 0;
  private openedAt = 0;

  constructor(private readonly options: { failures: number; cooldownMs: number }) {}

  get state(): BreakerState {
    return this.current;
  }

  get consecutiveFailures(): number {
    return this.failures;
  }

  /** May a summary call go out now? Moving to half-open is itself a transition to record. */
  check(now: number): { verdict: BreakerVerdict; transition?: BreakerTransition } {
    if (this.current === 'closed') return { verdict: { allowed: true, probe: false } };
    if (this.current === 'half_open') return { verdict: { allowed: true, probe: true } };
    const reopenAt = this.openedAt + this.options.cooldownMs;
    if (now < reopenAt) {
      return {
        verdict: {
          allowed: false,
          reopenAt,
          reason: `circuit breaker open: next probe in ${formatMs(reopenAt - now)}`,
        },
      };
    }
    this.current = 'half_open';
    return {
      verdict: { allowed: true, probe: true },
      transition: {
        state: 'half_open',
        consecutiveFailures: this.failures,
        reason: 'cool-down over: the next summary call is a probe',
      },
    };
  }

  /** A summary call succeeded: the breaker closes (a manual compaction's success counts too). */
  success(): BreakerTransition | undefined {
    const was = this.current;
    const hadFailures = this.failures > 0;
    this.current = 'closed';
    this.failures = 0;
    if (was === 'closed' && !hadFailures) return undefined;
    return {
      state: 'closed',
      consecutiveFailures: 0,
      reason: was === 'half_open' ? 'the probe succeeded' : 'a summary call succeeded',
    };
  }

  /** A summary call failed (after its own retries): count it, and open at the threshold. */
  failure(now: number): BreakerTransition {
    this.failures += 1;
    if (this.current === 'half_open' || this.failures >= this.options.failures) {
      const probeFailed = this.current === 'half_open';
      this.current = 'open';
      this.openedAt = now;
      return {
        state: 'open',
        consecutiveFailures: this.failures,
        reopenAt: now + this.options.cooldownMs,
        reason: probeFailed
          ? 'the probe failed: open again'
          : `${this.failures} consecutive summary failures`,
      };
    }
    return {
      state: this.current,
      consecutiveFailures: this.failures,
      reason: `summary failed (${this.failures} of ${this.options.failures} before the breaker opens)`,
    };
  }
}
