'use client';

import { formatMs, formatTokens, formatUsd } from '@/lib/run-view/format';
import type { BackgroundCallView } from '@/lib/client/run-view/group-background-calls';
import type { AttemptView } from '@/lib/run-view/run-view-state';
import { Pill } from '@/components/ui/pill';
import { RecoveryLadder } from './recovery-ladder';

/**
 * An auxiliary call (the run's title, a summary) drawn as its own card: it runs on the
 * background retry account, so its attempts and failures are its own, never the turn's.
 */
export function BackgroundCallCard({
  call,
  iteration,
  onSelect,
}: {
  call: BackgroundCallView;
  iteration: number;
  onSelect: (a: AttemptView) => void;
}) {
  const r = call.answered?.result;
  const failed = call.attempts.filter((a) => a.error || a.watchdog?.fired).length;
  return (
    <article
      data-testid="background-card"
      data-iteration={iteration}
      data-purpose={call.purpose}
      className="ml-4 rounded border border-dashed border-line bg-panel px-3 py-1.5"
    >
      <header className="flex flex-wrap items-center gap-2">
        <span className="text-xs font-semibold">Background call · {call.purpose}</span>
        <span className="text-2xs text-faint">after turn {iteration}, on the background retry account</span>
        {call.open && <Pill tone="run">in flight</Pill>}
        {r && <Pill tone="ok">{failed > 0 ? `answered after ${failed} failed` : 'answered'}</Pill>}
        {!r && !call.open && <Pill tone="neutral">given up (the run is unaffected)</Pill>}
        <span className="tabular ml-auto flex gap-3 font-mono text-2xs text-muted">
          {r && (
            <>
              <span title="input / output tokens">
                {formatTokens(r.inputTokens)} / {formatTokens(r.outputTokens)} tok
              </span>
              <span title="latency of the answering attempt">{formatMs(r.latencyMs)}</span>
              {r.usd !== undefined && <span>{formatUsd(r.usd)}</span>}
            </>
          )}
          <span title="attempts of this call">
            {call.attempts.length} {call.attempts.length === 1 ? 'attempt' : 'attempts'}
          </span>
        </span>
      </header>
      <RecoveryLadder attempts={call.attempts} onSelect={onSelect} />
    </article>
  );
}
