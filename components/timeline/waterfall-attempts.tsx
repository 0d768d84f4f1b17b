'use client';

import { memo } from 'react';
import { errorCause, formatMs } from '@/lib/run-view/format';
import type { AttemptView } from '@/lib/run-view/run-view-state';
import { TONE_BAR, TONE_BORDER, TONE_TEXT, outcomeTone } from '@/components/ui/tone';
import { keepaliveLabel } from '@/lib/run-view/format';
import { pct, pctWidth } from './waterfall-scale';

function attemptTitle(a: AttemptView): string {
  const lines = [
    `attempt ${a.attempt} · request ${a.requestNo} · ${a.vendor} ${a.model}${a.background ? ' · background' : ''}`,
    `started ${formatMs(a.startTs)}${a.ttfbMs !== undefined ? ` · ttfb ${formatMs(a.ttfbMs)}` : ''}${a.endTs !== undefined ? ` · took ${formatMs(a.endTs - a.startTs)}` : ''}`,
    `outcome: ${a.outcome}`,
  ];
  if (a.error)
    lines.push(`error: ${errorCause(a.error)} (rule ${a.error.rule}) — ${a.error.message.slice(0, 160)}`);
  if (a.keepalives)
    lines.push(
      `${keepaliveLabel(a.keepalives.count, a.keepalives.style)} — the SDK drops them, so they do not reset the watchdog`,
    );
  if (a.watchdog?.fired)
    lines.push(`watchdog fired after ${formatMs(a.watchdog.windowMs)}: ${a.watchdog.fired.outcome}`);
  if (a.result)
    lines.push(`stop: ${a.result.stopReason} · ${a.result.inputTokens} in / ${a.result.outputTokens} out`);
  return lines.join('\n');
}

/** Attempts that ended without an answer: drawn hatched as well as in their colour, so "failed" never rests on colour alone (WCAG 1.4.1). */
function failedOutcome(outcome: AttemptView['outcome']): boolean {
  return outcome === 'error' || outcome === 'watchdog' || outcome === 'cut';
}

/** One attempt: its bar, streamed content shaded, its watchdog band and the wait after it. */
export const AttemptBar = memo(function AttemptBar({
  a,
  domain,
  liveEnd,
  selected,
  onSelect,
}: {
  a: AttemptView;
  domain: number;
  liveEnd: number;
  selected: boolean;
  onSelect: (a: AttemptView) => void;
}) {
  const end = a.endTs ?? Math.max(liveEnd, a.startTs);
  const tone = outcomeTone(a.outcome);
  const wd = a.watchdog;
  const band = wd
    ? wd.fired
      ? [wd.fired.ts - wd.windowMs, wd.fired.ts]
      : a.endTs === undefined
        ? [wd.lastResetTs, wd.lastResetTs + wd.windowMs]
        : undefined
    : undefined;
  const wait = a.retry ? [a.retry.ts, a.retry.ts + (a.retry.actualWaitMs ?? a.retry.waitMs)] : undefined;
  return (
    <>
      {band && (
        <div
          className="band-watchdog pointer-events-none absolute inset-y-0"
          style={{ left: pct(band[0]!, domain), width: pctWidth(band[0]!, band[1]!, domain) }}
          title={`watchdog window ${formatMs(wd!.windowMs)}`}
        />
      )}
      <button
        type="button"
        onClick={() => onSelect(a)}
        title={attemptTitle(a)}
        data-testid="waterfall-attempt"
        data-outcome={a.outcome}
        className={`absolute top-1 bottom-1 min-w-[3px] overflow-hidden rounded-sm border ${TONE_BORDER[tone]} ${selected ? 'ring-2 ring-fg' : ''}`}
        style={{ left: pct(a.startTs, domain), width: pctWidth(a.startTs, end, domain) }}
      >
        <span className={`absolute inset-0 opacity-30 ${TONE_BAR[tone]}`} />
        {failedOutcome(a.outcome) && (
          <span
            data-testid="attempt-failed-hatch"
            className={`mark-failed absolute inset-0 ${TONE_TEXT[tone]}`}
          />
        )}
      </button>
      {a.contentSpans.map(([from, to]) => (
        <div
          key={from}
          className={`pointer-events-none absolute top-1 bottom-1 rounded-sm ${TONE_BAR[tone]}`}
          style={{
            left: pct(from, domain),
            width: pctWidth(from, Math.max(to, from + domain / 400), domain),
          }}
        />
      ))}
      {a.keepalives?.ts.map((ts) => (
        <div
          key={ts}
          data-testid="keepalive-tick"
          className="pointer-events-none absolute top-0.5 bottom-0.5 w-px bg-fg/50"
          style={{ left: pct(ts, domain) }}
        />
      ))}
      {wait && (
        <div
          className="hatch-wait absolute top-1.5 bottom-1.5 overflow-hidden rounded-sm border border-wait"
          style={{ left: pct(wait[0]!, domain), width: pctWidth(wait[0]!, wait[1]!, domain) }}
          title={`backoff ${formatMs(wait[1]! - wait[0]!)}: ${a.retry!.reason}${a.retry!.formula ? `\n${a.retry!.formula}` : ''}`}
          data-formula={a.retry!.formula}
        >
          <span className="pointer-events-none px-1 font-mono text-[10px] leading-3 text-wait whitespace-nowrap">
            {errorCause(a.error, a.retry!.category)} · {formatMs(wait[1]! - wait[0]!)}
          </span>
        </div>
      )}
    </>
  );
});
