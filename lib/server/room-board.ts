import 'server-only';
import { firstDivergence } from '@/lib/compare/first-divergence';
import { LESSONS, lessonBySlug } from '@/lib/lessons';
import { RunConfigSchema } from '@/lib/protocol/config';
import type { Board, LessonTally, NoticeBody, RoomNotice } from '@/lib/protocol/http';
import { getStore, getVisitorStore, type LessonPlay } from '@/lib/store';
import { getRunRegistry } from './get-run-registry';
import { HttpError } from './http-error';
import { roomMode, sessionOf } from './room-session';
import { createMemoryRoomState, type NoticeDraft, type RoomState } from './room-state';
import { createRedisRoomState } from './room-state-redis';
import { serverEnv } from '@/lib/config/server-env';

/**
 * The teacher's board (room mode with LOOP_LAB_TEACHER_CODE): who joined and which lesson each
 * played last, the runs in flight, and a tally per lesson counted from the stored runs of its
 * plays. What changes it (a join, a run starting or ending, a lesson played, a notice) is told
 * to the board's streams as it happens: nothing polls. Who is in the room and the notices are
 * the room state's (room-state.ts: this process's memory, or Redis shared by every web instance
 * when LOOP_LAB_REDIS_URL is set); plays and runs are the store's.
 */

interface BoardState {
  room: RoomState;
  /** First divergences of ended plays, by the on-side run's id (both logs are final). */
  diverged: Map<string, boolean>;
}

const globalForBoard = globalThis as typeof globalThis & { __loopLabBoard?: BoardState };

function state(): BoardState {
  if (!globalForBoard.__loopLabBoard) {
    const { redisUrl } = serverEnv();
    const room = redisUrl ? createRedisRoomState(redisUrl) : createMemoryRoomState();
    globalForBoard.__loopLabBoard = { room, diverged: new Map() };
  }
  return globalForBoard.__loopLabBoard;
}

/** Tells the board's streams; a change that cannot be told is said on stderr (the board is read again at the next). */
function changed(): void {
  state()
    .room.changed()
    .catch((error: unknown) => console.error(`[loop-lab] the board's change was not told: ${String(error)}`));
}

/** A session joined (or joined again): it is in the room from now on. */
export async function noteJoined(visitor: string, teacher: boolean): Promise<void> {
  await state().room.join(visitor, teacher);
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
export async function sendNotice(body: NoticeBody): Promise<RoomNotice> {
  let draft: NoticeDraft;
  if ('lesson' in body) {
    const lesson = lessonBySlug(body.lesson);
    if (!lesson)
      throw new HttpError(404, `No lesson "${body.lesson}"`, [
        `lessons: ${LESSONS.map((l) => l.slug).join(', ')}`,
      ]);
    draft = { kind: 'lesson', slug: lesson.slug, title: lesson.title };
  } else {
    const parsed = RunConfigSchema.safeParse(body.config);
    if (!parsed.success)
      throw new HttpError(
        400,
        'The config is not a run config',
        parsed.error.issues.slice(0, 5).map((issue) => `config.${issue.path.join('.')}: ${issue.message}`),
      );
    draft = {
      kind: 'config',
      config: parsed.data,
      title: `${parsed.data.scenario} on ${parsed.data.provider.vendor}`,
    };
  }
  return state().room.addNotice(draft);
}

/**
 * Sends a page the notices it has not had, then each as it is sent: those after `afterId` (a
 * page that reconnects, or one that has dismissed up to it), or, for a page that names none, the
 * last one sent. Each at most once and in order of id, however the sends and the reads cross.
 * Resolves once listening, with the function that stops.
 */
export async function followNotices(
  afterId: number | undefined,
  send: (notice: RoomNotice) => void,
): Promise<() => void> {
  const { room } = state();
  let last = afterId ?? Number.NEGATIVE_INFINITY;
  /** Notices heard while the kept ones are read; sent after them. */
  let heard: RoomNotice[] | undefined = [];
  const sendNew = (notice: RoomNotice): void => {
    if (notice.id <= last) return;
    last = notice.id;
    send(notice);
  };
  const stop = await room.onNotice((notice) => (heard ? heard.push(notice) : sendNew(notice)));
  try {
    if (afterId === undefined) {
      const lastSent = await room.lastNotice();
      if (lastSent) sendNew(lastSent);
    } else for (const notice of await room.noticesAfter(afterId)) sendNew(notice);
  } catch (error) {
    stop();
    throw error;
  }
  const waiting = heard;
  heard = undefined;
  for (const notice of waiting.sort((x, y) => x.id - y.id)) sendNew(notice);
  return stop;
}

/** Calls `listener` whenever the board may have changed; resolves once listening, with the unsubscribe function. */
export function onBoardChange(listener: () => void): Promise<() => void> {
  return state().room.onChange(listener);
}

/** The board now: presence and the last notice from the room state, runs and tallies from the store. */
export async function boardNow(): Promise<Board> {
  const { room } = state();
  const present = new Map(await room.present());
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
    notice: await room.lastNotice(),
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
