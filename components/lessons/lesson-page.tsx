'use client';

import Link from 'next/link';
import { useCallback, useState } from 'react';
import { api, ApiError } from '@/lib/client/api/client';
import { timeScaleLabel } from '@/lib/run-view/format';
import { lessonBySlug, lessonRunConfig, type Lesson } from '@/lib/lessons';
import { resolveRecovery } from '@/lib/protocol/presets';
import { DEFAULT_PRESET } from '@/lib/protocol/preset-ids';
import { RetryRulesTable } from '@/components/controls/retry-rules-table';
import { MECHANISMS } from '@/lib/mechanisms/mechanisms';
import type { PlayedLesson } from '@/lib/protocol/http';
import type { RunEvent } from '@/lib/protocol';
import { Button } from '@/components/ui/button';
import { LessonReport } from './lesson-report';
import { LessonRunColumn } from './lesson-run-column';

/**
 * A lesson: the failure, what the mechanism does and costs, and Play — both runs (same seed;
 * mechanism on / off) side by side, live, then what each cost and where they parted.
 */
export function LessonPage({ slug, timeScale }: { slug: string; timeScale?: number }) {
  const lesson = lessonBySlug(slug)!;
  const mechanism = MECHANISMS[lesson.mechanism];
  const [played, setPlayed] = useState<PlayedLesson>();
  const [logs, setLogs] = useState<{ on?: RunEvent[]; off?: RunEvent[] }>({});
  const [error, setError] = useState<string>();
  const [starting, setStarting] = useState(false);
  const scale = timeScale ?? lesson.timeScale;

  const play = async () => {
    setStarting(true);
    setError(undefined);
    try {
      const next = await api.playLesson(slug, timeScale);
      setLogs({});
      setPlayed(next);
    } catch (e) {
      setError(e instanceof ApiError ? [e.message, ...e.details].join(' · ') : String(e));
    } finally {
      setStarting(false);
    }
  };
  const endOn = useCallback((log: RunEvent[]) => setLogs((l) => ({ ...l, on: log })), []);
  const endOff = useCallback((log: RunEvent[]) => setLogs((l) => ({ ...l, off: log })), []);
  const playing = played !== undefined && (logs.on === undefined || logs.off === undefined);

  return (
    <div
      className="mx-auto flex max-w-[1600px] flex-col gap-3 p-4"
      data-testid="lesson-page"
      data-slug={slug}
    >
      <div className="flex flex-wrap items-baseline gap-x-3 text-2xs text-muted">
        <Link href="/lessons" className="hover:text-fg">
          ← lessons
        </Link>
        <span>mechanism: {mechanism.label}</span>
        <Link href="/glossary" className="hover:text-fg">
          glossary
        </Link>
      </div>
      <header className="flex flex-col gap-2">
        <h1 className="text-base font-semibold" data-testid="lesson-title">
          {lesson.title}
        </h1>
        <p className="text-sm" data-testid="lesson-failure">
          <span className="font-semibold text-fail">The failure: </span>
          {lesson.failure}
        </p>
        <div className="grid gap-2 text-xs md:grid-cols-3">
          <Explained heading="What happens" text={lesson.text.happens} />
          <Explained heading={`What the mechanism does (${mechanism.label})`} text={lesson.text.does} />
          <Explained heading="What it costs" text={lesson.text.costs} />
        </div>
        {RETRY_RULE_MECHANISMS.has(lesson.mechanism) && (
          <LessonRetryRules lesson={lesson} label={mechanism.label} />
        )}
        <div className="flex flex-wrap items-center gap-3">
          <Button
            variant="primary"
            data-testid="lesson-play"
            onClick={() => void play()}
            disabled={starting || playing}
          >
            {played ? 'Play again' : 'Play'}
          </Button>
          <span className="text-2xs text-muted">
            {lesson.fork ? (
              <>
                Play first makes a parent run from seed {lesson.config.seed} on{' '}
                {lesson.config.provider.vendor} (virtual clock) and stores it
                {played?.parent && (
                  <>
                    {' '}
                    (
                    <Link
                      className="underline"
                      href={`/runs/${encodeURIComponent(played.parent)}`}
                      data-testid="lesson-parent"
                    >
                      the parent run
                    </Link>
                    )
                  </>
                )}
                ; both runs are forks of it at turn {lesson.fork.atTurn} onto {lesson.fork.vendor}{' '}
                {lesson.fork.model}, started together: one as configured, one with{' '}
                {mechanism.label.toLowerCase()} switched off.
              </>
            ) : (
              <>
                Both runs start together from seed {lesson.config.seed}: one as configured, one with{' '}
                {mechanism.label.toLowerCase()} switched off.
              </>
            )}{' '}
            Paced clock, {timeScaleLabel(scale)}
            {scale !== 1 ? ' (times shown stay in run time)' : ''}: each run is this seed’s virtual-clock run
            event for event, each wait shown at that pace, so the times, waits, counts and outcomes quoted
            above are the ones on screen. A busy machine (or dev mode) only makes the play slower.
          </span>
        </div>
        {error && (
          <p className="text-xs text-fail" data-testid="lesson-error">
            {error}
          </p>
        )}
      </header>
      {played && (
        <>
          <div className="grid gap-3 lg:grid-cols-2" data-testid="lesson-sides">
            <LessonRunColumn
              runId={played.on}
              side="on"
              title={`${mechanism.label}: on`}
              expected={lesson.expect.on}
              onEnd={endOn}
            />
            <LessonRunColumn
              runId={played.off}
              side="off"
              title={`${mechanism.label}: off`}
              expected={lesson.expect.off}
              onEnd={endOff}
            />
          </div>
          {logs.on && logs.off && (
            <LessonReport lesson={lesson} played={played} on={logs.on} off={logs.off} />
          )}
        </>
      )}
    </div>
  );
}

/** Lessons about what is retried show each side's retry rules, as its configuration decides them. */
const RETRY_RULE_MECHANISMS: ReadonlySet<string> = new Set(['classifier']);

function LessonRetryRules({ lesson, label }: { lesson: Lesson; label: string }) {
  const sides = (['on', 'off'] as const).map((side) => {
    const config = lessonRunConfig(lesson, side, { clock: 'virtual' });
    return { side, recovery: resolveRecovery(config.preset ?? DEFAULT_PRESET, config.recovery) };
  });
  return (
    <div className="grid gap-2 md:grid-cols-2" data-testid="lesson-retry-rules">
      {sides.map(({ side, recovery }) => (
        <RetryRulesTable
          key={side}
          config={recovery}
          open
          title={`retry rules, ${label.toLowerCase()} ${side}`}
        />
      ))}
    </div>
  );
}

function Explained({ heading, text }: { heading: string; text: string }) {
  return (
    <section className="rounded border border-line bg-panel px-3 py-2">
      <h2 className="text-2xs font-semibold uppercase tracking-wide text-muted">{heading}</h2>
      <p className="mt-1 text-fg/90">{text}</p>
    </section>
  );
}
