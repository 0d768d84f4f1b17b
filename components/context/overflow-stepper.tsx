'use client';

import type { CompactionView, OverflowView } from '@/lib/run-view/context-view-state';
import { tokens } from './context-gauge';

const RUNGS: ReadonlyArray<{ step: CompactionView['step']; label: string }> = [
  { step: 'micro_compact', label: '1 micro-compact' },
  { step: 'summary', label: '2 full compaction' },
  { step: 'hard_trim', label: '3 hard trim' },
];

const SOURCE: Record<OverflowView['source'], string> = {
  before_stream: 'refused before the stream',
  in_stream: 'error inside the stream',
  stop_reason: 'the window cut the response',
};

/**
 * The CodeSmith overflow waterfall for one step: each recovery the vendor's "prompt is too
 * long" started, its rungs in order with tokens before → after (a rung not reached is grey),
 * and how it ended — resent and accepted, or the budget spent.
 */
export function OverflowStepper({
  overflows,
  steps,
}: {
  overflows: readonly OverflowView[];
  steps: readonly CompactionView[];
}) {
  return (
    <div className="flex flex-col gap-2" data-testid="overflow-stepper">
      {overflows.map((o) => {
        const rungs = steps.filter(
          (s) =>
            s.trigger === 'overflow' &&
            s.iteration === o.iteration &&
            s.recoveryAttempt === o.recoveryAttempt,
        );
        return (
          <div
            key={o.seq}
            data-testid="overflow-recovery"
            data-outcome={o.recovered ? 'recovered' : o.outcome}
            className="rounded border border-compact/40 bg-compact-soft/40 p-1.5"
          >
            <div className="flex flex-wrap items-baseline gap-2 text-2xs">
              <span className="font-semibold text-compact">turn {o.iteration} · prompt too long</span>
              <span className="text-muted">
                {SOURCE[o.source]} at ~{tokens(o.tokensEst)} tokens
              </span>
              <span className="tabular">
                {o.outcome === 'exhausted'
                  ? `budget of ${o.budget} spent`
                  : `recovery ${o.recoveryAttempt} of ${o.budget}`}
              </span>
            </div>
            {o.outcome === 'recovering' && (
              <ol className="mt-1 flex flex-wrap items-stretch gap-1">
                {RUNGS.map(({ step, label }) => {
                  const done = rungs.find((r) => r.step === step);
                  const tone = !done
                    ? 'border-line text-faint'
                    : done.ok
                      ? 'border-compact text-fg'
                      : 'border-line text-muted';
                  return (
                    <li
                      key={step}
                      data-testid="waterfall-rung"
                      data-step={step}
                      data-reached={done ? 'yes' : 'no'}
                      data-ok={done?.ok ? 'yes' : 'no'}
                      className={`min-w-36 flex-1 rounded border bg-panel px-1.5 py-1 text-2xs ${tone}`}
                      title={done?.reason}
                    >
                      <div className="font-medium">{label}</div>
                      {done ? (
                        <div className="tabular font-mono">
                          {done.ok
                            ? `${tokens(done.tokensBefore)} → ${tokens(done.tokensAfter)}`
                            : 'did not apply'}
                          <div className="truncate font-sans text-muted">{done.reason}</div>
                        </div>
                      ) : (
                        <div className="text-faint">not needed</div>
                      )}
                    </li>
                  );
                })}
              </ol>
            )}
            {o.recovered && (
              <div className="mt-1 text-2xs text-ok">
                resent at ~{tokens(o.recovered.tokensEst)} tokens and accepted · the step&apos;s retry budget
                starts over
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}
