'use client';

import { formatMs, keepaliveLabel } from '@/lib/run-view/format';
import { openAttempt } from '@/lib/run-view/reduce-run-event';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { useRunClock } from '@/lib/client/hooks/use-run-clock';

/**
 * The stream idle watchdog counting down in run time: the window from watchdog_armed,
 * restarted by every content delta. Only this bar re-renders on each clock tick.
 */
export function WatchdogBar() {
  const watchdog = useRunStore((s) => openAttempt(s.view)?.watchdog);
  const keepalives = useRunStore((s) => openAttempt(s.view)?.keepalives);
  const now = useRunClock();
  if (!watchdog || watchdog.fired) return null;
  const elapsed = Math.max(0, now - watchdog.lastResetTs);
  const left = Math.max(0, watchdog.windowMs - elapsed);
  const fraction = watchdog.windowMs > 0 ? left / watchdog.windowMs : 0;
  return (
    <div
      data-testid="watchdog-bar"
      className="flex items-center gap-2 border-b border-line bg-panel px-4 py-1 text-2xs"
    >
      <span className="text-muted">watchdog</span>
      <div className="relative h-1.5 flex-1 overflow-hidden rounded bg-sunken">
        <div
          className={`absolute inset-y-0 left-0 ${fraction < 0.25 ? 'bg-fail' : 'bg-wait'}`}
          style={{ width: `${(fraction * 100).toFixed(2)}%` }}
        />
      </div>
      {keepalives && (
        <span
          data-testid="watchdog-keepalives"
          className="tabular font-mono text-muted"
          title="the SDK drops keepalives, so they do not restart the window"
        >
          {keepaliveLabel(keepalives.count, keepalives.style)} (not content)
        </span>
      )}
      <span className="tabular min-w-40 text-right font-mono whitespace-nowrap text-muted">
        {formatMs(left)} left of {formatMs(watchdog.windowMs)}
      </span>
    </div>
  );
}
