'use client';

import Link from 'next/link';
import { useMemo } from 'react';
import { compareUrl, useComparison } from '@/lib/client/api/compare';
import { lessonGlance } from '@/lib/client/explain/lesson-glance';
import { firstDivergence } from '@/lib/compare/first-divergence';
import { judgedBetter } from '@/lib/compare/totals-diff';
import { endingByDesign, type Lesson, type LessonSide } from '@/lib/lessons';
import type { RunEvent } from '@/lib/protocol';
import type { PlayedLesson } from '@/lib/protocol/http';
import type { TotalsDiffRow } from '@/lib/protocol/http/compare';
import { TotalsRows } from '@/components/compare/totals-rows';
import { LessonTrace } from './lesson-trace';

/** After both runs ended: how each ended against the lesson's expectation, where they parted, and what each cost. */
export function LessonReport({
  lesson,
  played,
  on,
  off,
}: {
  lesson: Lesson;
  played: PlayedLesson;
  on: RunEvent[];
  off: RunEvent[];
}) {
  const divergence = useMemo(() => firstDivergence(on, off), [on, off]);
  const glance = useMemo(() => lessonGlance(lesson, on, off), [lesson, on, off]);
  // Totals are read off both stored logs by the server's one fold (lib/compare), judged by this lesson's measure.
  const comparison = useComparison(played.on, played.off, undefined, lesson.slug);
  const compareHref = compareUrl(played.on, played.off);

  return (
    <section
      className="flex flex-col gap-3 rounded border border-line bg-panel p-3"
      data-testid="lesson-report"
    >
      <div className="text-xs" data-testid="lesson-glance">
        <h2 className="text-2xs font-semibold uppercase tracking-wide text-muted">What differed</h2>
        <ul className="mt-1 flex flex-col gap-0.5">
          {glance.differences.map((line, i) => (
            <li key={i} data-testid="lesson-difference" className={i === 0 ? 'font-semibold' : ''}>
              {line}
            </li>
          ))}
        </ul>
      </div>
      <div className="grid gap-2 md:grid-cols-2">
        <Ending lesson={lesson} side="on" log={on} />
        <Ending lesson={lesson} side="off" log={off} />
      </div>
      <div className="text-xs" data-testid="lesson-divergence">
        <h2 className="text-2xs font-semibold uppercase tracking-wide text-muted">Where the runs parted</h2>
        {divergence ? (
          <p className="mt-1">
            {divergence.turn === null ? 'Only in how they ended' : `At turn ${divergence.turn}`}: with the
            mechanism on the run took <EventRef runId={played.on} step={divergence.a} />; with it off,{' '}
            <EventRef runId={played.off} step={divergence.b} />.
          </p>
        ) : (
          <p className="mt-1 text-fail">
            The two runs did the same thing: the mechanism never came into play.
          </p>
        )}
      </div>
      {lesson.trace && <LessonTrace on={played.on} off={played.off} />}
      <div data-testid="lesson-totals">
        <h2 className="text-2xs font-semibold uppercase tracking-wide text-muted">What each side cost</h2>
        <p className="mt-1 text-xs" data-testid="lesson-criterion">
          <span className="text-muted">Better, in this lesson, means: </span>
          {lesson.criterion.says}.
        </p>
        {comparison.data ? (
          <>
            <Verdict rows={comparison.data.totals} />
            <TotalsRows
              rows={comparison.data.totals}
              sides={{ a: 'on', b: 'off' }}
              rowTestId="lesson-total"
              className="mt-1 max-w-2xl"
            />
          </>
        ) : comparison.error ? (
          <p className="text-xs text-fail">{comparison.error.message}</p>
        ) : (
          <p className="text-xs text-muted">reading both logs…</p>
        )}
      </div>
      <Link
        href={compareHref}
        data-testid="lesson-compare-link"
        className="self-start text-xs text-takeover underline"
      >
        Open the pair in Compare (turn by turn, configs diffed)
      </Link>
    </section>
  );
}

/** Which side the lesson's measure favours, from the lines the server judged by it: nothing here judges anew. */
function Verdict({ rows }: { rows: TotalsDiffRow[] }) {
  const { side, lines } = judgedBetter(rows);
  const named = { a: 'on', b: 'off' } as const;
  return (
    <p className="mt-1 text-xs font-semibold" data-testid="lesson-verdict" data-better={side ?? ''}>
      {side === 'a' || side === 'b'
        ? `By that measure the mechanism ${named[side]} did better: ${lines[side].join(', ')}.`
        : side === 'mixed'
          ? `By that measure neither side is better throughout: on did better in ${lines.a.join(', ')}; off in ${lines.b.join(', ')}.`
          : 'By that measure no difference could be judged between the two sides.'}
    </p>
  );
}

function Ending({ lesson, side, log }: { lesson: Lesson; side: LessonSide; log: RunEvent[] }) {
  const end = log.at(-1);
  const expected = lesson.expect[side];
  const terminate = end?.event === 'terminate' ? end : undefined;
  const reason = terminate?.reason;
  const asExpected =
    terminate !== undefined &&
    terminate.reason === expected.reason &&
    terminate.complete === expected.complete;
  const byDesign = endingByDesign(expected, terminate);
  return (
    <div
      className="text-xs"
      data-testid={`lesson-ending-${side}`}
      data-reason={reason ?? ''}
      data-as-expected={asExpected ? 'yes' : 'no'}
      data-by-design={byDesign ?? ''}
    >
      <span className={`font-semibold ${side === 'on' ? 'text-ok' : 'text-fail'}`}>Mechanism {side}: </span>
      ended <span className="font-mono">{reason?.replace(/_/g, ' ') ?? '?'}</span>
      {byDesign && <span className="text-ok"> ({byDesign}: the mechanism did its job)</span>} —{' '}
      {expected.says}
      {!asExpected && (
        <span className="text-fail"> (the lesson expected {expected.reason.replace(/_/g, ' ')})</span>
      )}
    </div>
  );
}

function EventRef({ runId, step }: { runId: string; step: { seq: number; label: string } | null }) {
  if (!step) return <span className="text-muted">no further step (it had ended)</span>;
  return (
    <Link
      href={`/runs/${encodeURIComponent(runId)}`}
      className="underline"
      title={`event #${step.seq} of run ${runId}`}
    >
      <span className="font-mono">#{step.seq}</span> {step.label}
    </Link>
  );
}
