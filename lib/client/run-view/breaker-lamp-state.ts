import type { BreakerView } from '@/lib/run-view/context-view-state';
import { formatMs } from '@/lib/run-view/format';

export type LampState = 'closed' | 'open' | 'half_open';

/**
 * What the summary breaker's lamp says at run time `now`: closed (summaries allowed), open
 * (refused, counting down to the probe), half-open (the cool-down is over; the next summary
 * call is a probe). Once the run has ended nothing will probe, so an open breaker says when
 * the probe would have been due instead of counting down to a moment that never comes.
 */
export function breakerLampState(input: {
  breaker?: BreakerView;
  threshold: number;
  now: number;
  ended: boolean;
}): {
  state: LampState;
  detail: string;
  coolDownOver: boolean;
} {
  const { breaker, threshold, now, ended } = input;
  const coolDownOver = breaker?.state === 'open' && breaker.reopenAt !== undefined && now >= breaker.reopenAt;
  const state: LampState = coolDownOver ? 'half_open' : (breaker?.state ?? 'closed');
  if (breaker?.state === 'open' && breaker.reopenAt !== undefined && !coolDownOver) {
    const detail = ended
      ? `summaries refused when the run ended · the probe was due at ${formatMs(breaker.reopenAt)} of run time`
      : `summaries refused · probe in ${formatMs(breaker.reopenAt - now)}`;
    return { state, detail, coolDownOver };
  }
  if (state === 'half_open') {
    return {
      state,
      detail: ended
        ? 'cool-down over when the run ended; no summary call probed it'
        : 'the next summary call is a probe',
      coolDownOver,
    };
  }
  return {
    state,
    detail: `${breaker?.failures ?? 0} of ${threshold} consecutive summary failures`,
    coolDownOver,
  };
}
