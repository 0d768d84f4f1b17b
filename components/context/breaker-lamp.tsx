'use client';

import type { BreakerView } from '@/lib/run-view/context-view-state';
import { breakerLampState } from '@/lib/client/run-view/breaker-lamp-state';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { useRunClock } from '@/lib/client/hooks/use-run-clock';
import { WhyLine } from '@/components/explain/why-line';

const LAMP: Record<'closed' | 'open' | 'half_open', { dot: string; word: string }> = {
  closed: { dot: 'bg-ok', word: 'closed' },
  open: { dot: 'bg-fail', word: 'open' },
  half_open: { dot: 'bg-wait', word: 'half-open' },
};

/**
 * The summary call's circuit breaker: closed (summaries allowed), open (refused, counting
 * down to the probe on the run clock), half-open (the next summary call is a probe); the
 * words are lib/client/run-view/breaker-lamp-state.ts.
 */
export function BreakerLamp({ breaker, threshold }: { breaker?: BreakerView; threshold: number }) {
  const now = useRunClock();
  const ended = useRunStore((s) => s.view.terminate !== undefined);
  const { state, detail, coolDownOver } = breakerLampState({ breaker, threshold, now, ended });
  const { dot, word } = LAMP[state];
  return (
    <div
      data-testid="breaker-lamp"
      data-state={state}
      className="flex flex-wrap items-center gap-1.5 text-2xs"
      title={breaker?.reason ?? 'no summary call has failed'}
    >
      <span className={`inline-block h-2.5 w-2.5 rounded-full ${dot}`} />
      <span className="font-medium">breaker {word}</span>
      <span className="tabular text-muted">{detail}</span>
      {breaker && !coolDownOver && <WhyLine seq={breaker.seq} className="basis-full" linked />}
    </div>
  );
}
