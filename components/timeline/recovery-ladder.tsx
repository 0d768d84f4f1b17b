import { categoryLabel, formatMs } from '@/lib/run-view/format';
import { ladderErrorNote } from '@/lib/client/explain/ladder-error-note';
import type { AttemptView } from '@/lib/run-view/run-view-state';
import { WhyLine } from '@/components/explain/why-line';
import { RetryWait } from './retry-wait';
import { TONE_PILL, outcomeTone } from '@/components/ui/tone';

/**
 * The recovery inside one call, compact: per attempt the rung, attempt k of n, category,
 * computed delay, server-requested delay, actual wait, and the watchdog's Empty/Partial.
 */
export function RecoveryLadder({
  attempts,
  onSelect,
}: {
  attempts: readonly AttemptView[];
  onSelect?: (a: AttemptView) => void;
}) {
  const interesting = attempts.some(
    (a) =>
      a.error ||
      a.retry ||
      a.watchdog?.fired ||
      a.attempt > 1 ||
      a.outcome === 'stopped' ||
      a.sdkRetries?.length,
  );
  if (!interesting) return null;
  const maxAttempts = attempts.reduce(
    (n, a) => Math.max(n, a.retry?.maxAttempts ?? a.declined?.maxAttempts ?? 0),
    0,
  );
  // The first armed window: later attempts' windows are widened per retry already spent.
  const baseWindow = attempts.find((a) => a.watchdog)?.watchdog?.windowMs ?? Infinity;
  return (
    <div className="flex flex-wrap items-stretch gap-1" aria-label="recovery ladder">
      {attempts.map((a) => {
        const r = a.retry;
        const fired = a.watchdog?.fired;
        return (
          <button
            type="button"
            key={a.requestNo}
            data-testid="ladder-step"
            data-outcome={a.outcome}
            onClick={() => onSelect?.(a)}
            className={`flex flex-col items-start rounded border px-1.5 py-0.5 text-left font-mono text-[10px] leading-3.5 ${TONE_PILL[outcomeTone(a.outcome)]}`}
          >
            <span className="font-semibold">
              {a.background ? 'bg ' : ''}attempt {a.attempt}
              {maxAttempts > 0 ? ` of ${maxAttempts}` : ''} · {a.outcome}
            </span>
            {a.error && (
              <span>
                {a.error.status ?? ''} {categoryLabel(a.error.category)}
                {ladderErrorNote(a)}
              </span>
            )}
            {a.sdkRetries && a.sdkRetries.length > 0 && (
              <span data-testid="sdk-retries" className="tabular">
                {1 + a.sdkRetries.length} HTTP requests: the SDK resent {a.sdkRetries.length} (
                {a.sdkRetries.map((r) => (r.afterStatus !== undefined ? r.afterStatus : 'conn')).join(', ')})
              </span>
            )}
            {fired && (
              <span>
                watchdog {formatMs(a.watchdog!.windowMs)} · {fired.outcome === 'empty' ? 'Empty' : 'Partial'}
              </span>
            )}
            {!fired && a.watchdog && a.watchdog.windowMs > baseWindow && (
              <span data-testid="watchdog-widened">
                watchdog window widened to {formatMs(a.watchdog.windowMs)}
              </span>
            )}
            {r && (
              <span className="tabular">
                {r.rung.replace('_', ' ')} · calc {r.formula ?? formatMs(r.computedDelayMs)}
                {r.retryAfterMs !== undefined ? ` · asked ${formatMs(r.retryAfterMs)}` : ''} ·{' '}
                <RetryWait retry={r} />
              </span>
            )}
            <WhyLine
              seq={r?.seq ?? a.declined?.seq ?? fired?.seq ?? a.error?.seq}
              className="max-w-[22rem] font-sans whitespace-normal"
            />
          </button>
        );
      })}
    </div>
  );
}
