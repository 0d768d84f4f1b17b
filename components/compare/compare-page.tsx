'use client';

import Link from 'next/link';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '@/lib/client/api/client';
import { useComparison } from '@/lib/client/api/compare';
import { useComparisonNow, type SideEnds } from '@/lib/client/run-view/compare-clock';
import { noDivergenceNote } from '@/lib/compare/no-divergence-note';
import type { Comparison } from '@/lib/protocol/http/compare';
import { CompareSideHeader } from './compare-side-header';
import { ConfigDiffTable } from './config-diff-table';
import { PromptOnlyNote } from './prompt-only-note';
import { SweepPairedResult } from './sweep-paired-result';
import { TotalsTable } from './totals-table';
import { TurnRow } from './turn-row';

/** Two runs side by side: turns aligned, the first divergence marked and scrolled to, totals and configs diffed. */
export function ComparePage({ a, b, sweep = '' }: { a: string; b: string; sweep?: string }) {
  if (!a || !b) {
    return (
      <Message testId="compare-missing">
        A comparison needs two runs:{' '}
        <span className="font-mono">/compare?a=&lt;run id&gt;&amp;b=&lt;run id&gt;</span>. Open a run and use
        “Compare with…”, or pick one from the{' '}
        <Link href="/runs" className="text-takeover underline">
          runs list
        </Link>
        .
      </Message>
    );
  }
  return <Loaded a={a} b={b} sweep={sweep} />;
}

function Loaded({ a, b, sweep }: { a: string; b: string; sweep: string }) {
  // A side's terminate, heard on its stream: its clock stops there before the re-read arrives.
  const [ends, setEnds] = useState<SideEnds>({ a: null, b: null });
  const onEnd = useCallback(
    (side: 'a' | 'b', runMs: number) => setEnds((e) => ({ ...e, [side]: runMs })),
    [],
  );
  const query = useComparison(a, b, onEnd);
  if (query.error) {
    const error = query.error;
    return (
      <Message testId="compare-error">
        {error instanceof ApiError ? error.message : String(error)}
        {error instanceof ApiError && error.details.length > 0 ? ` (${error.details.join('; ')})` : ''}.{' '}
        <Link href="/runs" className="text-takeover underline">
          Runs list
        </Link>
      </Message>
    );
  }
  if (!query.data) return <Message testId="compare-loading">Reading both runs…</Message>;
  return (
    <ComparisonView
      answer={query.data}
      receivedAt={query.dataUpdatedAt}
      ends={ends}
      paired={sweep ? <SweepPairedResult sweep={sweep} a={a} b={b} /> : null}
    />
  );
}

function ComparisonView({
  answer,
  receivedAt,
  ends,
  paired,
}: {
  answer: Comparison;
  receivedAt: number;
  ends: SideEnds;
  /** The sweep's paired result for the two runs' rows, when they were opened from a sweep. */
  paired: React.ReactNode;
}) {
  // A live side's times move on between answers (a retry's wait writes no event).
  const c = useComparisonNow(answer, receivedAt, ends);
  const scrolled = useRef(false);
  const divergedTurn = c.divergence?.turn ?? null;
  useEffect(() => {
    if (scrolled.current || !c.divergence) return;
    scrolled.current = true;
    const target = document.querySelector(
      c.divergence.turn === null
        ? '[data-testid="compare-end"]'
        : '[data-testid="compare-turn"][data-diverged="true"]',
    );
    target?.scrollIntoView({ block: 'center' });
  }, [c.divergence]);
  const live = c.a.running || c.b.running;
  const modelA = `${c.a.vendor} ${c.a.model}`;
  const modelB = `${c.b.vendor} ${c.b.model}`;
  const runModels = useMemo(() => ({ a: modelA, b: modelB }), [modelA, modelB]);
  const copied = useMemo(() => ({ a: c.a.copied, b: c.b.copied }), [c.a.copied, c.b.copied]);

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-4" data-testid="compare-page">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-[3rem_1fr_1fr]">
        {/* Over the turns' label column on a wide screen; a phone needs the width for the cards. */}
        <span className="hidden md:block" />
        <CompareSideHeader side={c.a} letter="A" other={{ id: c.b.id, letter: 'B' }} />
        <CompareSideHeader side={c.b} letter="B" other={{ id: c.a.id, letter: 'A' }} />
      </div>

      <section
        data-testid="compare-divergence"
        className={`rounded border px-3 py-2 text-xs ${c.divergence ? 'border-wait/50 bg-wait-soft' : 'border-line bg-panel'}`}
      >
        {c.divergence ? (
          <>
            <span className="font-semibold">
              ◆ First divergence{c.divergence.turn !== null ? ` at turn ${c.divergence.turn}` : ' at the end'}
              :{' '}
            </span>
            {c.divergence.description}
            <span className="ml-2 font-mono text-2xs text-muted">
              A #{c.divergence.a?.seq ?? '–'} · B #{c.divergence.b?.seq ?? '–'}
            </span>
          </>
        ) : (
          noDivergenceNote(c)
        )}
      </section>

      {c.promptOnly && <PromptOnlyNote fields={c.promptOnly.fields} where="compare" />}

      {/* Each box as tall as its contents (no panel stretched to the totals' height); the config
          diff is short, so the sweep's paired result, when there is one, stands under it. */}
      <div className="grid items-start gap-4 md:grid-cols-2">
        <TotalsTable rows={c.totals} live={live} copied={copied} />
        <div className="flex min-w-0 flex-col gap-4">
          <ConfigDiffTable rows={c.config} />
          {paired}
        </div>
      </div>

      <section className="flex flex-col gap-2" data-testid="compare-turns">
        <h2 className="text-xs font-semibold">Turns, side by side</h2>
        {c.turns.map((row) => (
          <TurnRow
            key={row.turn}
            row={row}
            firstDivergence={row.turn === divergedTurn}
            {...(row.turn === divergedTurn && c.divergence
              ? {
                  reason: `${c.divergence.description} (A #${c.divergence.a?.seq ?? '–'} · B #${c.divergence.b?.seq ?? '–'})`,
                }
              : {})}
            runModels={runModels}
          />
        ))}
        <div
          data-testid="compare-end"
          className={`grid grid-cols-[3rem_1fr_1fr] gap-3 rounded border px-2 py-1.5 text-xs ${c.divergence && divergedTurn === null ? 'border-wait' : 'border-line'}`}
        >
          <span className="text-2xs font-semibold text-muted">end</span>
          <EndLines lines={c.end.a} running={c.a.running} />
          <EndLines lines={c.end.b} running={c.b.running} />
        </div>
      </section>
    </div>
  );
}

function EndLines({ lines, running }: { lines: string[]; running: boolean }) {
  if (running) return <span className="text-run">still running</span>;
  return (
    <ul className="text-2xs">
      {lines.map((l, i) => (
        <li key={i}>{l}</li>
      ))}
    </ul>
  );
}

function Message({ children, testId }: { children: React.ReactNode; testId: string }) {
  return (
    <div className="m-auto max-w-xl px-4 py-16 text-sm" data-testid={testId}>
      {children}
    </div>
  );
}
