import { RunConfigSchema, type ClockKind, type RunConfig, type RunEvent } from '@/lib/protocol';
import { lessonRunConfig, type Lesson, type LessonSide } from '@/lib/lessons';
import { configWithMechanismOff } from '@/lib/mechanisms/mechanisms';
import { launchRun } from './launch-run';
import { planFork, type ForkStart } from './plan-fork';

/** A stored run a forked lesson's sides start from. */
export interface LessonParent {
  runId: string;
  config: RunConfig;
  events: readonly RunEvent[];
}

/**
 * The clock a lesson plays on live (the play route): paced at the lesson's time scale, or the
 * player's. Paced is the virtual clock with each jump waiting for wall time, so a played side is
 * its virtual-clock run event for event at any load: the counts, waits and outcomes its text
 * quotes (checked on the virtual clock by lib/lessons/lessons.test.ts) are the ones on screen.
 */
export function lessonPlayClock(lesson: Lesson, timeScale?: number): { clock: 'paced'; timeScale: number } {
  return { clock: 'paced', timeScale: timeScale ?? lesson.timeScale };
}

/** The parent run of a forked lesson: its config as written, on the virtual clock (it is made, not watched). */
export function lessonParentConfig(lesson: Lesson): RunConfig {
  return RunConfigSchema.parse(lessonRunConfig(lesson, 'on', { clock: 'virtual' }));
}

/**
 * One side of a lesson as a run to start. A plain lesson: its config, the mechanism on or off.
 * A forked lesson: the parent forked at the lesson's turn onto its vendor, as a fork request
 * would plan it (lib/runtime/plan-fork), then the mechanism on or off on the fork and the
 * player's clock.
 */
export function lessonSideRun(options: {
  lesson: Lesson;
  side: LessonSide;
  clock: { clock: ClockKind; timeScale?: number };
  /** Required for a forked lesson; ignored otherwise. */
  parent?: LessonParent;
}): { config: RunConfig; fork?: ForkStart } {
  const { lesson, side, clock, parent } = options;
  if (!lesson.fork) return { config: RunConfigSchema.parse(lessonRunConfig(lesson, side, clock)) };
  if (!parent)
    throw new Error(`lesson ${lesson.slug} starts from a parent run: make it first (lessonParentConfig)`);
  const { atTurn, vendor, model } = lesson.fork;
  const plan = planFork({
    spec: { runId: parent.runId, atTurn, provider: vendor, model },
    parent: { config: parent.config, running: false },
    events: parent.events,
  });
  if (!plan.ok)
    throw new Error(
      `lesson ${lesson.slug}: the parent cannot be forked as the lesson asks: ${plan.problems.join('; ')}`,
    );
  const onFork = { ...plan.config, clock: clock.clock, timeScale: clock.timeScale ?? lesson.timeScale };
  const config = side === 'on' ? onFork : configWithMechanismOff(onFork, lesson.mechanism);
  return { config: RunConfigSchema.parse(config), fork: plan.fork };
}

/** A forked lesson's parent run made in this process, on the virtual clock, as the play route makes it (without storing it). */
export async function makeLessonParentHere(
  lesson: Lesson,
  runId = `${lesson.slug}-parent`,
): Promise<LessonParent> {
  const config = lessonParentConfig(lesson);
  const events: RunEvent[] = [];
  await launchRun({ runId, config, onEvent: (e) => events.push(e) }).done;
  return { runId, config, events };
}

/**
 * Both sides of a lesson played to their end in this process on the given clock, started
 * together, as the play route starts them (a forked lesson's parent made first, on the virtual
 * clock, unless one is given): the runtime calls the route makes, without the server, its store
 * or the stream.
 */
export async function playLessonHere(options: {
  lesson: Lesson;
  clock: { clock: ClockKind; timeScale?: number };
  /** Run ids start with this (default: the lesson's slug). */
  runIdPrefix?: string;
  /** A forked lesson's parent, already made (makeLessonParentHere). */
  parent?: LessonParent;
  /** Called as each side's run ends. */
  onEnd?: (side: LessonSide) => void;
}): Promise<Record<LessonSide, RunEvent[]>> {
  const { lesson, clock } = options;
  const prefix = options.runIdPrefix ?? lesson.slug;
  const parent = lesson.fork
    ? (options.parent ?? (await makeLessonParentHere(lesson, `${prefix}-parent`)))
    : undefined;
  const side = async (which: LessonSide): Promise<RunEvent[]> => {
    const { config, fork } = lessonSideRun({ lesson, side: which, clock, ...(parent ? { parent } : {}) });
    const events: RunEvent[] = [];
    await launchRun({
      runId: `${prefix}-${which}`,
      config,
      ...(fork ? { fork } : {}),
      onEvent: (e) => events.push(e),
    }).done;
    options.onEnd?.(which);
    return events;
  };
  const [on, off] = await Promise.all([side('on'), side('off')]);
  return { on, off };
}
