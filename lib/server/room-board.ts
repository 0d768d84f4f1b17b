import 'server-only';
import { EventEmitter } from 'node:events';
import { firstDivergence } from '@/lib/compare/first-divergence';
import { LESSONS, lessonBySlug } from '@/lib/lessons';
import { RunConfigSchema } from '@/lib/protocol/config';
import type { Board, LessonTally, NoticeBody, RoomNotice } from '@/lib/protocol/http';
import { getStore, getVisitorStore, type LessonPlay } from '@/lib/store';
import { getRunRegistry } from './get-run-registry';
import { HttpError } from './http-error';
import { roomMode, sessionOf } from './room-session';

/**
 * The teacher's board (room mode with LOOP_LAB_TEACHER_CODE): who joined and which lesson each
 * played last, the runs in flight, and a tally per lesson counted from the stored runs of its
 * plays. What changes it (a join, a run starting or ending, a lesson played, a notice) is told
 * to the board's streams as it happens: nothing polls. Who is in the room is this process's
 * memory (sessions are too: docs/room-mode.md); plays and runs are the store's.
 */

interface Present {
  name: string;
  teacher: boolean;
}

interface BoardState {
  present: Map<string, Present>;
  changes: EventEmitter;
  notices: RoomNotice[];
  /** First divergences of ended plays, by the on-side run's id (both logs are final). */
  diverged: Map<string, boolean>;
}

const globalForBoard = globalThis as typeof globalThis & { __loopLabBoard?: BoardState };

function state(): BoardState {
  if (!globalForBoard.__loopLabBoard) {
    const changes = new EventEmitter();
    // Every board and every visitor's page listens: a room of any size.
    changes.setMaxListeners(0);
    globalForBoard.__loopLabBoard = { present: new Map(), changes, notices: [], diverged: new Map() };
  }
  return globalForBoard.__loopLabBoard;
}

/** How many notices are kept for a page that reconnects (Last-Event-ID). */
const KEPT_NOTICES = 50;

function changed(): void {
  state().changes.emit('change');
}

/** A session joined (or joined again): it is in the room from now on. */
export function noteJoined(visitor: string, teacher: boolean): void {
  const { present } = state();
  const known = present.get(visitor);
  // Visitors are numbered in the order they joined; the teacher is not one of them.
  const visitors = [...present.values()].filter((who) => !who.teacher).length;
  const name = known?.name ?? (teacher ? 'the teacher' : `visitor ${visitors + 1}`);
  present.set(visitor, { name, teacher });
  changed();
}

/** A visitor's run was recorded as theirs: the board hears now, and again when it ends. */
export async function noteRunClaimed(runId: string): Promise<void> {
  changed();
  const registry = getRunRegistry();
  if (await registry.isLive(runId)) void registry.whenFinished(runId).then(changed, changed);
}

/** A lesson played through the play route: kept, so the board tallies its two runs. */
export async function noteLessonPlay(play: Omit<LessonPlay, 'createdAt'>): Promise<void> {
  await getVisitorStore().addLessonPlay({ ...play, createdAt: Date.now() });
  changed();
}

/**
 * The request's teacher session: 404 when the server is not a room; 403 for a visitor (the
 * board is the teacher's); 401 without a session.
 */
export async function requireTeacher(request: Request): Promise<void> {
  if (!roomMode())
    throw new HttpError(404, 'This Loop Lab is not a room: there is no board', [
      'the board is on when the server starts with LOOP_LAB_ROOM_CODE and LOOP_LAB_TEACHER_CODE set (docs/room-mode.md)',
    ]);
  const session = await sessionOf(request);
  if (session === undefined) throw new HttpError(401, 'This Loop Lab is a room: join it first');
  if (!session.teacher)
    throw new HttpError(403, "The board is the teacher's", [
      'join with the teacher code (LOOP_LAB_TEACHER_CODE) to open it',
    ]);
}

/** The request's session, visitor or teacher: 404 outside a room, 401 without one. */
export async function requireMember(request: Request): Promise<void> {
  if (!roomMode()) throw new HttpError(404, 'This Loop Lab is not a room: there are no notices');
  if ((await sessionOf(request)) === undefined)
    throw new HttpError(401, 'This Loop Lab is a room: join it first');
}

/** Sends every visitor's page a notice: a lesson to open, or a run config (checked here). */
export function sendNotice(body: NoticeBody): RoomNotice {
  const { notices, changes } = state();
  const id = (notices.at(-1)?.id ?? 0) + 1;
  let notice: RoomNotice;
  if ('lesson' in body) {
    const lesson = lessonBySlug(body.lesson);
    if (!lesson)
      throw new HttpError(404, `No lesson "${body.lesson}"`, [
        `lessons: ${LESSONS.map((l) => l.slug).join(', ')}`,
      ]);
    notice = { id, kind: 'lesson', slug: lesson.slug, title: lesson.title };
  } else {
    const parsed = RunConfigSchema.safeParse(body.config);
    if (!parsed.success)
      throw new HttpError(
        400,
        'The config is not a run config',
        parsed.error.issues.slice(0, 5).map((issue) => `config.${issue.path.join('.')}: ${issue.message}`),
      );
    notice = {
      id,
      kind: 'config',
      config: parsed.data,
      title: `${parsed.data.scenario} on ${parsed.data.provider.vendor}`,
    };
  }
  notices.push(notice);
  if (notices.length > KEPT_NOTICES) notices.shift();
  changes.emit('notice', notice);
  changed();
  return notice;
}

/**
 * The notices a page is sent as it connects: those after `afterId` (a page that reconnects, or
 * one that has dismissed up to it), or, for a page that names none, the last one sent.
 */
export function noticesAfter(afterId: number | undefined): RoomNotice[] {
  const { notices } = state();
  if (afterId === undefined) return notices.slice(-1);
  return notices.filter((notice) => notice.id > afterId);
}

/** Calls `listener` with each notice sent from now on; returns the unsubscribe function. */
export function onNotice(listener: (notice: RoomNotice) => void): () => void {
  const { changes } = state();
  changes.on('notice', listener);
  return () => changes.off('notice', listener);
}

/** Calls `listener` whenever the board may have changed; returns the unsubscribe function. */
export function onBoardChange(listener: () => void): () => void {
  const { changes } = state();
  changes.on('change', listener);
  return () => changes.off('change', listener);
}

/** The board now: presence from this process, runs and tallies from the store. */
export async function boardNow(): Promise<Board> {
  const { present, notices } = state();
  const visitors = getVisitorStore();
  const plays = await visitors.lessonPlays();
  const running = await visitors.runningRuns();
  const nameOf = (visitor: string) => present.get(visitor)?.name ?? 'a visitor not seen joining';
  const lastLesson = new Map<string, string>();
  for (const play of plays) if (play.visitor !== null) lastLesson.set(play.visitor, play.slug);
  return {
    visitors: [...present]
      .filter(([, who]) => !who.teacher)
      .map(([visitor, who]) => ({
        name: who.name,
        lesson: lastLesson.get(visitor) ?? null,
        running: running.filter((run) => run.visitor === visitor).length,
      })),
    inFlight: running.map((run) => ({ run: run.id, visitor: nameOf(run.visitor) })),
    lessons: await tallyLessons(plays),
    notice: notices.at(-1) ?? null,
  };
}

/** Each lesson's tally, counted from the stored runs its plays name. */
export async function tallyLessons(plays: readonly LessonPlay[]): Promise<LessonTally[]> {
  const store = getStore();
  const tallies = new Map<string, LessonTally>(
    LESSONS.map((lesson) => [
      lesson.slug,
      {
        slug: lesson.slug,
        title: lesson.title,
        played: 0,
        ended: 0,
        onCompleted: 0,
        offFailed: 0,
        diverged: 0,
      },
    ]),
  );
  for (const play of plays) {
    const tally = tallies.get(play.slug);
    if (!tally) continue;
    tally.played += 1;
    const on = (await store.getRun(play.on))?.summary;
    const off = (await store.getRun(play.off))?.summary;
    if (on?.status === 'completed') tally.onCompleted += 1;
    if (off?.status === 'failed') tally.offFailed += 1;
    if (!on || !off || on.status === 'running' || off.status === 'running') continue;
    tally.ended += 1;
    if (await divergedOnce(play)) tally.diverged += 1;
  }
  return [...tallies.values()];
}

/** Whether an ended play's two runs part: read once per play (both logs are final). */
async function divergedOnce(play: LessonPlay): Promise<boolean> {
  const { diverged } = state();
  const known = diverged.get(play.on);
  if (known !== undefined) return known;
  const store = getStore();
  const parts =
    firstDivergence(
      await store.readEvents({ runId: play.on }),
      await store.readEvents({ runId: play.off }),
    ) !== null;
  diverged.set(play.on, parts);
  return parts;
}
