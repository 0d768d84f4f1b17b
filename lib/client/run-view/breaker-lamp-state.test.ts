import { describe, expect, it } from 'vitest';
import type { BreakerView } from '@/lib/run-view/context-view-state';
import { breakerLampState } from './breaker-lamp-state';

const open: BreakerView = {
  state: 'open',
  failures: 3,
  reopenAt: 369_000,
  ts: 120_000,
  seq: 40,
  reason: '3 consecutive summary failures',
};

describe('breakerLampState', () => {
  it('counts down to the probe on the run clock while the run is live', () => {
    expect(breakerLampState({ breaker: open, threshold: 3, now: 125_000, ended: false })).toEqual({
      state: 'open',
      detail: 'summaries refused · probe in 4 min 04 s',
      coolDownOver: false,
    });
  });

  it('after terminate, does not count down to a probe that will never happen', () => {
    const x = breakerLampState({ breaker: open, threshold: 3, now: 125_000, ended: true });
    expect(x.state).toBe('open');
    expect(x.detail).not.toContain('probe in');
    expect(x.detail).toBe(
      'summaries refused when the run ended · the probe was due at 6 min 09 s of run time',
    );
  });

  it('turns half-open once the cool-down is over, and closed shows the failure count', () => {
    expect(breakerLampState({ breaker: open, threshold: 3, now: 370_000, ended: false }).detail).toBe(
      'the next summary call is a probe',
    );
    expect(breakerLampState({ breaker: undefined, threshold: 3, now: 0, ended: false })).toMatchObject({
      state: 'closed',
      detail: '0 of 3 consecutive summary failures',
    });
  });
});
