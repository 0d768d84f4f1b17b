'use client';

import { useEffect, useRef, useState } from 'react';
import type { SwapView } from '@/lib/run-view/fold-takeover';
import { formatMs } from '@/lib/run-view/format';
import { explainTakeoverOutcome } from '@/lib/run-view/explain/explain-swap-step';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { JsonView } from '@/components/ui/json-view';
import { Pill } from '@/components/ui/pill';
import { WhyLine } from '@/components/explain/why-line';
import { AsIsList, CarriedList, DroppedList } from './takeover-lines';
import { TakeoverWire } from './takeover-wire';

const CAUSE: Record<SwapView['cause'], string> = {
  control: 'swapped by hand',
  scheduled: 'scheduled in the config',
  fallback: 'cross-vendor fallback',
  fork: 'a fork continuing on another vendor',
};

/**
 * What travelled and what came back: for each swap, what the new vendor answered its first
 * request, what rendering the history for it converted, dropped and sent as it was — and, for a
 * handled swap, one click away, what the strict simulated vendor would answer the same request
 * rendered naively (credentials included). Every sentence is written from the swap's events.
 */
export function TakeoverPanel() {
  const swaps = useRunStore((s) => s.view.swaps);
  const live = useRunStore(
    (s) => s.view.status === 'running' || s.view.status === 'waiting' || s.view.status === 'recovering',
  );
  const section = useRef<HTMLElement>(null);
  // A new swap, its first request's report (the bodies) or that request's answer arriving: the panel grew.
  const landed = `${swaps.length}:${swaps.at(-1)?.report?.seq ?? ''}:${swaps.at(-1)?.outcome?.seq ?? ''}`;
  const seen = useRef(landed);
  // A swap that lands while the run is watched brings the panel into view: the payoff is here, not only in the vendor lane.
  useEffect(() => {
    const grew = landed !== seen.current;
    seen.current = landed;
    if (!grew || !live || swaps.length === 0) return;
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    section.current?.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
  }, [landed, live, swaps.length]);
  if (swaps.length === 0) return null;
  return (
    <section
      ref={section}
      className="max-h-[75vh] scroll-mt-2 overflow-y-auto border-b border-line bg-panel px-4 py-2"
      data-testid="takeover-panel"
      aria-label="takeover"
    >
      <h2 className="mb-1 text-2xs font-semibold tracking-wide text-takeover uppercase">Takeover</h2>
      <div className="flex flex-col gap-2">
        {[...swaps].reverse().map((swap) => (
          <SwapCard key={swap.seq} swap={swap} />
        ))}
      </div>
    </section>
  );
}

function SwapCard({ swap }: { swap: SwapView }) {
  const [showNaive, setShowNaive] = useState(false);
  const report = swap.report;
  const naive = report?.naive;
  const handledNaively = swap.handling.naive;
  return (
    <div
      className="rounded border border-takeover/40 bg-takeover-soft/40 p-2 text-2xs"
      data-testid="takeover-swap"
      data-naive={handledNaively}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-fg">
          {swap.fromVendor}/{swap.fromModel} →{' '}
          <span className="text-takeover">
            {swap.toVendor}/{swap.toModel}
          </span>
        </span>
        <Pill tone="takeover">{swap.dialect}</Pill>
        <Pill tone={handledNaively ? 'fail' : 'takeover'} testId="takeover-handling">
          {handledNaively ? 'naive: history sent as it was' : 'handled'}
        </Pill>
        <span className="text-muted">
          turn {swap.iteration} · {formatMs(swap.ts)} · {CAUSE[swap.cause]}
          {swap.reason ? ` (${swap.reason})` : ''}
        </span>
      </div>
      <TakeoverAnswer swap={swap} />
      {swap.recordedAs && (
        <p className="text-muted" data-testid="swap-recorded">
          recorded in the run&apos;s config as a swap at turn {swap.recordedAs.atTurn}: Re-run and Open in
          playground make it again
        </p>
      )}
      {swap.notRecorded && (
        <p className="text-wait">not recorded in the run&apos;s config: {swap.notRecorded}</p>
      )}
      <WhyLine seq={swap.seq} linked />
      {report && <WhyLine seq={report.seq} />}
      {!report ? (
        <p className="mt-1 text-muted">the first request on {swap.toVendor} has not been sent yet</p>
      ) : (
        <div className="mt-1 grid gap-2 md:grid-cols-3">
          <div className="md:col-span-3">
            <TakeoverWire before={swap.sentBefore} after={report.sent} naive={report.naiveBody} />
          </div>
          <div>
            <h3 className="font-semibold text-fg">Converted</h3>
            {report.converted.length === 0 ? (
              <p className="text-muted">none</p>
            ) : (
              <CarriedList converted={report.converted} />
            )}
          </div>
          <div>
            <h3 className="font-semibold text-fg">Dropped</h3>
            {report.dropped.length === 0 ? (
              <p className="text-muted">none</p>
            ) : (
              <DroppedList dropped={report.dropped} />
            )}
          </div>
          <div>
            <h3 className="font-semibold text-fg">Sent as it was</h3>
            {report.asIs.length === 0 ? <p className="text-muted">none</p> : <AsIsList asIs={report.asIs} />}
          </div>
          {!handledNaively && (
            <div className="md:col-span-3">
              {naive === undefined ? (
                <p className="text-muted">
                  the naive rendering is judged only by the strict simulated vendors: a real vendor is not
                  paid to show a counterfactual
                </p>
              ) : (
                <>
                  <button
                    type="button"
                    data-testid="naive-toggle"
                    className="text-takeover underline decoration-dotted"
                    onClick={() => setShowNaive(!showNaive)}
                  >
                    {showNaive ? 'hide' : 'show'} what {swap.toVendor} would answer the naive rendering
                    (history as it was, credentials included)
                  </button>
                  {showNaive && (
                    <div
                      className="mt-1 rounded border border-line bg-sunken p-2"
                      data-testid="naive-verdict"
                    >
                      {naive.accepted ? (
                        <p>
                          accepted: this target checks no foreign credentials, so the naive rendering would
                          pass here
                        </p>
                      ) : (
                        <>
                          <p className="font-mono text-fail">
                            {naive.status} {naive.type}: {naive.message}
                          </p>
                          <p className="mt-1 text-muted">
                            validated by the simulated vendor&apos;s own checks on the actually rendered
                            request, not a canned string; not sent
                          </p>
                          <JsonView value={naive.body} label="error body" />
                        </>
                      )}
                    </div>
                  )}
                </>
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

const ANSWER_TONE = { accepted: 'text-ok', refused: 'text-fail', failed: 'text-fail' } as const;

/** What the new vendor answered the first request after the swap, as the swap controller recorded it; or that it is awaited. */
function TakeoverAnswer({ swap }: { swap: SwapView }) {
  const ended = useRunStore((s) => s.view.terminate);
  const outcome = swap.outcome;
  if (!outcome) {
    return (
      <p className="mt-1 font-semibold text-wait" data-testid="takeover-answer" data-outcome="none">
        {ended
          ? `no answer from ${swap.toVendor} in the log: the run ended (${ended.reason}) first`
          : `waiting for ${swap.toVendor}'s answer to the first request`}
      </p>
    );
  }
  return (
    <p
      className={`mt-1 font-semibold ${ANSWER_TONE[outcome.outcome]}`}
      data-testid="takeover-answer"
      data-outcome={outcome.outcome}
    >
      {explainTakeoverOutcome(outcome).why}
    </p>
  );
}
