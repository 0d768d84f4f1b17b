import fs from 'node:fs';
import path from 'node:path';
import { LESSONS, type Lesson } from '@/lib/lessons';
import type { RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { lessonParentConfig, lessonSideRun, type LessonParent } from '@/lib/runtime/lesson-sides';
import { startNextServer } from './next-server';

/** The promise a lesson page makes: both sides played to their end in this much wall time. */
export const LESSON_WALL_TARGET_MS = 30_000;

export interface LessonPlayTime {
  slug: string;
  timeScale: number;
  /** Wall ms from Play to each side's terminate, and to the later of the two. */
  onMs: number;
  offMs: number;
  wallMs: number;
}

export type LessonPlayTimes = { how: string; lessons: LessonPlayTime[] };

/**
 * Every lesson played as its page plays it, one lesson after another, and timed on the wall
 * clock. With a production build (.next/BUILD_ID): `next start`, POST /api/lessons/{slug}/play
 * (both sides start together on the real clock at the lesson's time scale), then each run's
 * event stream (GET /api/runs/{id}/events, what the page reads) until its terminate. Without
 * one: the same two run configs launched in this process on the real clock (the runtime calls
 * the route makes, without the server, its store or the stream).
 */
export async function measureLessonPlayTimes(options: { only?: readonly string[]; onLesson?: (time: LessonPlayTime) => void } = {}): Promise<LessonPlayTimes> {
  const lessons = options.only ? LESSONS.filter((l) => options.only!.includes(l.slug)) : LESSONS;
  const root = process.cwd();
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    const out: LessonPlayTime[] = [];
    for (const lesson of lessons) {
      out.push(await playInProcess(lesson));
      options.onLesson?.(out.at(-1)!);
    }
    return { how: 'in this process (no production build: run `npx next build` to measure through `next start`)', lessons: out };
  }
  const server = await startNextServer({ root, prefix: 'loop-lab-bench-lessons-' });
  const { base } = server;
  try {
    const out: LessonPlayTime[] = [];
    for (const lesson of lessons) {
      out.push(await playThroughServer(base, lesson));
      options.onLesson?.(out.at(-1)!);
    }
    return { how: 'through `next start` (production build): POST /api/lessons/{slug}/play, each side read on its event stream to terminate', lessons: out };
  } finally {
    await server.stop();
  }
}

async function playThroughServer(base: string, lesson: Lesson): Promise<LessonPlayTime> {
  const started = performance.now();
  const response = await fetch(`${base}/api/lessons/${lesson.slug}/play`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (response.status !== 201) throw new Error(`play ${lesson.slug}: ${response.status} ${await response.text()}`);
  const { on, off } = (await response.json()) as { on: string; off: string };
  const [onMs, offMs] = await Promise.all(
    [on, off].map(async (id) => (await readToTerminate(`${base}/api/runs/${encodeURIComponent(id)}/events`), performance.now() - started)),
  );
  return { slug: lesson.slug, timeScale: lesson.timeScale, onMs: onMs!, offMs: offMs!, wallMs: Math.max(onMs!, offMs!) };
}

/** Reads a run's event stream until its terminate event has arrived. */
async function readToTerminate(url: string): Promise<void> {
  const response = await fetch(url);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let tail = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`${url}: the stream ended before terminate`);
    // Only the last partial line needs carrying over to find the terminate's event name.
    const text = tail + decoder.decode(value, { stream: true });
    if (text.includes('"event":"terminate"')) {
      await reader.cancel();
      return;
    }
    tail = text.slice(-64);
  }
}

async function playInProcess(lesson: Lesson): Promise<LessonPlayTime> {
  const started = performance.now();
  // A forked lesson's parent is made first, on the virtual clock, as the play route makes it.
  let parent: LessonParent | undefined;
  if (lesson.fork) {
    const config = lessonParentConfig(lesson);
    const events: RunEvent[] = [];
    const runId = `bench-${lesson.slug}-parent`;
    await launchRun({ runId, config, onEvent: (e) => events.push(e) }).done;
    parent = { runId, config, events };
  }
  const side = async (which: 'on' | 'off', runId: string) => {
    const { config, fork } = lessonSideRun({ lesson, side: which, clock: { clock: 'real' }, ...(parent ? { parent } : {}) });
    await launchRun({ runId, config, ...(fork ? { fork } : {}), onEvent: () => {} }).done;
    return performance.now() - started;
  };
  const [onMs, offMs] = await Promise.all([side('on', `bench-${lesson.slug}-on`), side('off', `bench-${lesson.slug}-off`)]);
  return { slug: lesson.slug, timeScale: lesson.timeScale, onMs, offMs, wallMs: Math.max(onMs, offMs) };
}
