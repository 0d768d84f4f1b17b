'use client';

import { useEffect, useRef, useState } from 'react';
import type { SwapView } from '@/lib/client/run-view/fold-takeover';
import { formatMs } from '@/lib/client/format';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { JsonView } from '@/components/ui/json-view';
import { Pill } from '@/components/ui/pill';
import { WhyLine } from '@/components/explain/why-line';
import { CarriedList, DroppedList } from './takeover-lines';
import { TakeoverWire } from './takeover-wire';

const CAUSE: Record<SwapView['cause'], string> = {
  control: 'swapped by hand',
  scheduled: 'scheduled in the config',
  fallback: 'cross-vendor fallback',
  fork: 'a fork continuing on another vendor',
};

/**
 * What travelled and what could not: for each swap, what rendering the history for the new
 * vendor carried and dropped on its first request — and, one click away, what the strict
 * simulated vendor answers to the same request rendered naively (credentials included).
 */
export function TakeoverPanel() {
  const swaps = useRunStore((s) => s.view.swaps);
  const live = useRunStore((s) => s.view.status === 'running' || s.view.status === 'waiting' || s.view.status === 'recovering');
  const section = useRef<HTMLElement>(null);
  // A new swap, or its first request's report (the bodies) arriving: the panel grew.
  const landed = `${swaps.length}:${swaps.at(-1)?.report?.seq ?? ''}`;
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
  return (
    <div className="rounded border border-takeover/40 bg-takeover-soft/40 p-2 text-2xs" data-testid="takeover-swap">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-fg">
          {swap.fromVendor}/{swap.fromModel} →{' '}
          <span className="text-takeover">
            {swap.toVendor}/{swap.toModel}
          </span>
        </span>
        <Pill tone="takeover">{swap.dialect}</Pill>
        <span className="text-muted">
          turn {swap.iteration} · {formatMs(swap.ts)} · {CAUSE[swap.cause]}
          {swap.reason ? ` (${swap.reason})` : ''}
        </span>
        <span className="text-muted">
          foreign thinking: {swap.handling.foreignThinking === 'drop' ? 'dropped' : 'kept as a marked note'}
          {swap.handling.naive ? ' · naive takeover: history sent as it was' : ''}
          {!swap.handling.naive && swap.handling.rulesOff?.length ? ` · safeguard off: ${swap.handling.rulesOff.join(', ').replace(/_/g, ' ')}` : ''}
        </span>
      </div>
      {swap.recordedAs && (
        <p className="text-muted" data-testid="swap-recorded">
          recorded in the run&apos;s config as a swap at turn {swap.recordedAs.atTurn}: Re-run and Open in playground make it again
        </p>
      )}
      {swap.notRecorded && <p className="text-wait">not recorded in the run&apos;s config: {swap.notRecorded}</p>}
      <WhyLine seq={swap.seq} linked />
      {report && <WhyLine seq={report.seq} />}
      {!report ? (
        <p className="mt-1 text-muted">the first request on {swap.toVendor} has not been sent yet</p>
      ) : (
        <div className="mt-1 grid gap-2 md:grid-cols-2">
          <div className="md:col-span-2">
            <TakeoverWire before={swap.sentBefore} after={report.sent} naive={report.naiveBody} />
          </div>
          <div>
            <h3 className="font-semibold text-fg">Carried</h3>
            {report.converted.length === 0 ? <p className="text-muted">nothing needed converting</p> : <CarriedList converted={report.converted} />}
          </div>
          <div>
            <h3 className="font-semibold text-fg">Dropped</h3>
            {report.dropped.length === 0 ? (
              <p className="text-muted">nothing: the history was the target&apos;s own</p>
            ) : (
              <DroppedList dropped={report.dropped} />
            )}
          </div>
          <div className="md:col-span-2">
            {naive === undefined ? (
              <p className="text-muted">
                the naive rendering is judged only by the strict simulated vendors: a real vendor is not paid to show a counterfactual
              </p>
            ) : (
              <>
                <button type="button" data-testid="naive-toggle" className="text-takeover underline decoration-dotted" onClick={() => setShowNaive(!showNaive)}>
                  {showNaive ? 'hide' : 'show'} what {swap.toVendor} answers the naive rendering (history as it was, credentials included)
                </button>
                {showNaive && (
                  <div className="mt-1 rounded border border-line bg-sunken p-2" data-testid="naive-verdict">
                    {naive.accepted ? (
                      <p>accepted: this target checks no foreign credentials, so the naive rendering would pass here</p>
                    ) : (
                      <>
                        <p className="font-mono text-fail">
                          {naive.status} {naive.type}: {naive.message}
                        </p>
                        <p className="mt-1 text-muted">
                          validated by the simulated vendor&apos;s own checks on the actually rendered request, not a canned string
                        </p>
                        <JsonView value={naive.body} label="error body" />
                      </>
                    )}
                  </div>
                )}
              </>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
