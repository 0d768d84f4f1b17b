'use client';

import Link from 'next/link';
import { useEffect } from 'react';
import { endingByDesign, type LessonOutcome } from '@/lib/lessons';
import type { RunEvent } from '@/lib/protocol';
import { RunStoreProvider, useRunStore, useRunStoreApi } from '@/lib/client/run-view/run-store-provider';
import { logWhole } from '@/lib/client/run-view/run-store';
import { useRunEvents } from '@/lib/client/hooks/use-run-events';
import { RunHeader } from '@/components/timeline/run-header';
import { TerminateBanner } from '@/components/timeline/terminate-banner';
import { TurnList } from '@/components/timeline/turn-list';
import { WatchdogBar } from '@/components/timeline/watchdog-bar';
import { Waterfall } from '@/components/timeline/waterfall';

export interface LessonRunColumnProps {
  runId: string;
  side: 'on' | 'off';
  title: string;
  /** What the lesson expects of this side: its ending, and in one line what it does. */
  expected: LessonOutcome;
  /** Called once with the whole log when the run's terminate event has arrived. */
  onEnd: (log: RunEvent[]) => void;
}

/** One side of a lesson, live: its own run store and event stream, drawn with the run view's parts. */
export function LessonRunColumn(props: LessonRunColumnProps) {
  return (
    <RunStoreProvider key={props.runId}>
      <ColumnBody {...props} />
    </RunStoreProvider>
  );
}

function ColumnBody({ runId, side, title, expected, onEnd }: LessonRunColumnProps) {
  useRunEvents(runId);
  const store = useRunStoreApi();
  const ended = useRunStore((s) => s.view.terminate !== undefined);
  // The lesson says whether this ending is the mechanism doing its job; the terminate's reason and complete say whether the run ended so.
  const endedAs = useRunStore((s) => endingByDesign(expected, s.view.terminate));
  // The whole log: a finished run shown folded holds the events its view names until the rest is in.
  const whole = useRunStore(logWhole);
  useEffect(() => {
    if (ended && whole) onEnd([...store.getState().log]);
  }, [ended, whole, onEnd, store]);

  return (
    <section
      data-testid={`lesson-side-${side}`}
      data-run-id={runId}
      data-ended={ended ? 'yes' : 'no'}
      className="flex min-w-0 flex-col rounded border border-line bg-panel"
    >
      <div className="flex flex-wrap items-baseline gap-2 border-b border-line px-3 py-1.5">
        <h2 className={`text-xs font-semibold ${side === 'on' ? 'text-ok' : 'text-fail'}`}>{title}</h2>
        <span className="text-2xs text-muted">expected: {expected.says}</span>
        <Link
          href={`/runs/${encodeURIComponent(runId)}`}
          className="ml-auto text-2xs text-takeover underline"
        >
          open run
        </Link>
      </div>
      <RunHeader endedAs={endedAs} />
      <WatchdogBar />
      <TerminateBanner endedAs={endedAs} />
      <Waterfall />
      <div className="max-h-[28rem] min-h-0 overflow-y-auto">
        <TurnList />
      </div>
    </section>
  );
}
