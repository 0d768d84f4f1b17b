import { RunConfigSchema, type RunConfig, type RunEvent } from '@/lib/protocol';
import { lessonRunConfig, type Lesson, type LessonSide } from '@/lib/lessons';
import { configWithMechanismOff } from '@/lib/mechanisms/mechanisms';
import { planFork, type ForkStart } from './plan-fork';

/** A stored run a forked lesson's sides start from. */
export interface LessonParent {
  runId: string;
  config: RunConfig;
  events: readonly RunEvent[];
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
  clock: { clock: 'real' | 'virtual'; timeScale?: number };
  /** Required for a forked lesson; ignored otherwise. */
  parent?: LessonParent;
}): { config: RunConfig; fork?: ForkStart } {
  const { lesson, side, clock, parent } = options;
  if (!lesson.fork) return { config: RunConfigSchema.parse(lessonRunConfig(lesson, side, clock)) };
  if (!parent) throw new Error(`lesson ${lesson.slug} starts from a parent run: make it first (lessonParentConfig)`);
  const { atTurn, vendor, model } = lesson.fork;
  const plan = planFork({
    spec: { runId: parent.runId, atTurn, provider: vendor, model },
    parent: { config: parent.config, running: false },
    events: parent.events,
  });
  if (!plan.ok) throw new Error(`lesson ${lesson.slug}: the parent cannot be forked as the lesson asks: ${plan.problems.join('; ')}`);
  const onFork = { ...plan.config, clock: clock.clock, timeScale: clock.timeScale ?? lesson.timeScale };
  const config = side === 'on' ? onFork : configWithMechanismOff(onFork, lesson.mechanism);
  return { config: RunConfigSchema.parse(config), fork: plan.fork };
}
