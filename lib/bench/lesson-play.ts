import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { LESSONS, type Lesson, type LessonSide } from '@/lib/lessons';
import { LESSON_CLAIMS } from '@/lib/lessons/lesson-claims.testkit';
import { RunRecordSchema } from '@/lib/protocol/http';
import type { RunEvent } from '@/lib/protocol';
import {
  lessonPlayClock,
  makeLessonParentHere,
  playLessonHere,
  type LessonParent,
} from '@/lib/runtime/lesson-sides';
import { startBusyLoops } from '@/lib/testing/busy-loops';
import { deterministicContent } from '@/lib/testing/deterministic-log';
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
  /** The host's one-minute load average when the lesson ended. */
  load: number;
  /**
   * What the played runs contradict: a side that is not its virtual-clock run event for event,
   * a side that ends otherwise than the lesson says, a claim of its text (lib/lessons/lesson-claims.testkit.ts)
   * the played runs do not bear out. Empty: every number the text quotes is the one played.
   */
  problems: string[];
}

export type LessonPlayTimes = { how: string; busyLoops: number; lessons: LessonPlayTime[] };

/** Busy loops beside the lessons, a core: with the bench itself, a load of 10 or more on this machine's cores. */
const BUSY_PER_CORE = Number(process.env.BENCH_BUSY_PER_CORE ?? 5);
/** The load the lessons' texts are held to (the one-minute load average). */
export const LOAD_FLOOR = 10;

/**
 * Every lesson played as its page plays it, one lesson after another, beside busy loops
 * (BENCH_BUSY_PER_CORE a core, default 5: a load of 10 or more), timed on the wall clock, and
 * its text checked against the runs as played. With a production build (.next/BUILD_ID):
 * `next start`, POST /api/lessons/{slug}/play (both sides start together on the paced clock at
 * the lesson's time scale), then each run's event stream (GET /api/runs/{id}/events, what the
 * page reads) until its terminate, and its stored log (GET /api/runs/{id}/trace). Without one:
 * the same two runs launched in this process on the paced clock (the runtime calls the route
 * makes, without the server, its store or the stream).
 */
export async function measureLessonPlayTimes(
  options: { only?: readonly string[]; onLesson?: (time: LessonPlayTime) => void } = {},
): Promise<LessonPlayTimes> {
  const lessons = options.only ? LESSONS.filter((l) => options.only!.includes(l.slug)) : LESSONS;
  const root = process.cwd();
  const built = fs.existsSync(path.join(root, '.next', 'BUILD_ID'));
  const server = built ? await startNextServer({ root, prefix: 'loop-lab-bench-lessons-' }) : undefined;
  const busy = startBusyLoops({ perCore: BUSY_PER_CORE });
  try {
    // The one-minute load average follows the loops over a minute or so: play once it says busy.
    for (
      const until = performance.now() + 90_000;
      os.loadavg()[0]! < LOAD_FLOOR && performance.now() < until;
    ) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const out: LessonPlayTime[] = [];
    for (const lesson of lessons) {
      out.push(server ? await playThroughServer(server.base, lesson) : await playInProcess(lesson));
      options.onLesson?.(out.at(-1)!);
    }
    const how = server
      ? 'through `next start` (production build): POST /api/lessons/{slug}/play, each side read on its event stream to terminate'
      : 'in this process (no production build: run `npx next build` to measure through `next start`)';
    return { how, busyLoops: busy.count, lessons: out };
  } finally {
    await busy.stop();
    await server?.stop();
  }
}

async function playThroughServer(base: string, lesson: Lesson): Promise<LessonPlayTime> {
  const started = performance.now();
  const response = await fetch(`${base}/api/lessons/${lesson.slug}/play`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (response.status !== 201)
    throw new Error(`play ${lesson.slug}: ${response.status} ${await response.text()}`);
  const ids = (await response.json()) as { on: string; off: string; parent?: string };
  const [onMs, offMs] = await Promise.all(
    [ids.on, ids.off].map(
      async (id) => (
        await readToTerminate(`${base}/api/runs/${encodeURIComponent(id)}/events`),
        performance.now() - started
      ),
    ),
  );
  const load = os.loadavg()[0]!;
  // The parent a forked lesson's sides were forked from, as the route read it: the reference forks from it too.
  const parent = ids.parent
    ? {
        runId: ids.parent,
        config: RunRecordSchema.parse(await getJson(`${base}/api/runs/${encodeURIComponent(ids.parent)}`))
          .config,
        events: await storedLog(base, ids.parent),
      }
    : undefined;
  const played = { on: await storedLog(base, ids.on), off: await storedLog(base, ids.off) };
  const problems = await checkPlayed(lesson, played, parent);
  return {
    slug: lesson.slug,
    timeScale: lesson.timeScale,
    onMs: onMs!,
    offMs: offMs!,
    wallMs: Math.max(onMs!, offMs!),
    load,
    problems,
  };
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A run's log as stored (its JSONL download), once it ends in a terminate. */
async function storedLog(base: string, runId: string): Promise<RunEvent[]> {
  for (let tries = 0; ; tries++) {
    const response = await fetch(`${base}/api/runs/${encodeURIComponent(runId)}/trace`);
    if (!response.ok) throw new Error(`trace of ${runId}: ${response.status} ${await response.text()}`);
    const events = (await response.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RunEvent);
    if (events.at(-1)?.event === 'terminate') return events;
    // The stream said terminate; the store may be a moment behind it.
    if (tries >= 50) throw new Error(`trace of ${runId}: no terminate stored`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * What the runs as played contradict (LessonPlayTime.problems): each side against its
 * virtual-clock run from the same parent (made here), how each ends, and every claim of the text.
 */
async function checkPlayed(
  lesson: Lesson,
  played: Record<LessonSide, RunEvent[]>,
  parent: LessonParent | undefined,
): Promise<string[]> {
  const virtual = await playLessonHere({
    lesson,
    clock: { clock: 'virtual' },
    runIdPrefix: `bench-${lesson.slug}-virtual`,
    ...(parent ? { parent } : {}),
  });
  const problems: string[] = [];
  for (const side of ['on', 'off'] as const) {
    const [a, b] = [deterministicContent(played[side]), deterministicContent(virtual[side])];
    const at = a.findIndex((event, i) => !isDeepStrictEqual(event, b[i]));
    if (at >= 0 || a.length !== b.length) {
      const i = at >= 0 ? at : Math.min(a.length, b.length);
      problems.push(
        `${side} side is not its virtual-clock run from event ${i} (${played[side].length} events against ${virtual[side].length}): ${JSON.stringify(a[i] ?? null).slice(0, 200)}`,
      );
    }
    const end = played[side].at(-1);
    const expected = lesson.expect[side];
    if (end?.event !== 'terminate' || end.reason !== expected.reason || end.complete !== expected.complete) {
      problems.push(
        `${side} side ended ${end?.event === 'terminate' ? `${end.reason} (complete ${end.complete})` : 'without a terminate'}; the lesson says ${expected.reason} (complete ${expected.complete})`,
      );
    }
  }
  try {
    LESSON_CLAIMS[lesson.slug]!(lesson, played);
  } catch (error) {
    problems.push(`text: ${String(error instanceof Error ? error.message : error).split('\n')[0]}`);
  }
  return problems;
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
  const parent = lesson.fork ? await makeLessonParentHere(lesson, `bench-${lesson.slug}-parent`) : undefined;
  const ended: Partial<Record<LessonSide, number>> = {};
  const played = await playLessonHere({
    lesson,
    clock: lessonPlayClock(lesson),
    runIdPrefix: `bench-${lesson.slug}`,
    ...(parent ? { parent } : {}),
    onEnd: (side) => (ended[side] = performance.now() - started),
  });
  const load = os.loadavg()[0]!;
  const problems = await checkPlayed(lesson, played, parent);
  return {
    slug: lesson.slug,
    timeScale: lesson.timeScale,
    onMs: ended.on!,
    offMs: ended.off!,
    wallMs: Math.max(ended.on!, ended.off!),
    load,
    problems,
  };
}
