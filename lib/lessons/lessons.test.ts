import { describe, expect, it } from 'vitest';
import { compareRuns } from '@/lib/compare/compare-runs';
import { firstDivergence } from '@/lib/compare/first-divergence';
import { findContradictions } from '@/lib/run-view/explain/why-claims';
import { judgedBetter } from '@/lib/compare/totals-diff';
import { MECHANISM_IDS, RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { terminateOf } from '@/lib/testing/run-to-end';
import { deterministicContent } from '@/lib/testing/deterministic-log';
import { endingByDesign, LESSONS, lessonBySlug, lessonRunConfig, type Lesson } from './index';
import { LESSON_CLAIMS } from './lesson-claims.testkit';
import { MECHANISMS } from '@/lib/mechanisms/mechanisms';
import { mechanismSteps } from './mechanism-steps';
import { lessonPlayClock, makeLessonParentHere, playLessonHere } from '@/lib/runtime/lesson-sides';

/**
 * The pace the played sides run at here: the play route's clock (paced), far faster than a
 * lesson's own pace so the catalogue plays in seconds; the pace changes when events come, never
 * which (lib/lessons/lessons-at-load.test.ts plays at a lesson's pace, beside busy loops).
 */
const TEST_PACE = 0.002;

/**
 * Both sides of a lesson through the real runtime (a forked lesson's from its parent run, made
 * first on the virtual clock, as the route makes it): on the virtual clock, and as the play route
 * plays them. The played runs must be the
 * virtual ones event for event: that is what makes a lesson's numbers the ones on screen.
 */
async function play(
  lesson: Lesson,
): Promise<{ virtual: Record<'on' | 'off', RunEvent[]>; played: Record<'on' | 'off', RunEvent[]> }> {
  const parent = lesson.fork ? await makeLessonParentHere(lesson) : undefined;
  const [virtual, played] = await Promise.all([
    playLessonHere({
      lesson,
      clock: { clock: 'virtual' },
      runIdPrefix: 'virtual',
      ...(parent ? { parent } : {}),
    }),
    playLessonHere({
      lesson,
      clock: lessonPlayClock(lesson, TEST_PACE),
      runIdPrefix: 'played',
      ...(parent ? { parent } : {}),
    }),
  ]);
  return { virtual, played };
}

describe('the lessons catalogue', () => {
  it('has one lesson per switchable mechanism, at the slug the mechanisms table links to', () => {
    expect(new Set(LESSONS.map((l) => l.slug)).size).toBe(LESSONS.length);
    for (const id of MECHANISM_IDS) {
      const lesson = LESSONS.find((l) => l.mechanism === id);
      expect(lesson?.slug, id).toBe(MECHANISMS[id].lessonSlug);
    }
  });

  it('every lesson has its claims checked against its runs', () => {
    expect(Object.keys(LESSON_CLAIMS).sort()).toEqual(LESSONS.map((l) => l.slug).sort());
  });

  it('shows an ending as the mechanism doing its job only where the lesson says so and the run ended exactly so', () => {
    const partial = lessonBySlug('partial-vs-empty')!;
    expect(endingByDesign(partial.expect.on, { reason: 'partial_response', complete: false })).toBe(
      'Partial presented',
    );
    // Any other ending on that side is shown as it is: a failure stays a failure.
    expect(endingByDesign(partial.expect.on, { reason: 'model_error', complete: false })).toBeNull();
    expect(endingByDesign(partial.expect.off, { reason: 'end_turn', complete: true })).toBeNull();
    expect(endingByDesign(partial.expect.on, undefined)).toBeNull();
  });

  it('every lesson config is a valid run config on both sides', () => {
    for (const lesson of LESSONS) {
      for (const side of ['on', 'off'] as const) {
        expect(
          RunConfigSchema.safeParse(lessonRunConfig(lesson, side, lessonPlayClock(lesson))).success,
          `${lesson.slug} ${side}`,
        ).toBe(true);
      }
    }
  });
});

describe.each(LESSONS.map((l) => [l.slug, l] as const))(
  'lesson %s (both sides, virtual and as played)',
  (_slug, lesson) => {
    it('each side reaches its expected outcome, the runs diverge where the lesson says, it plays in under 30 s, and its text is true of both runs as played', async () => {
      const { virtual, played } = await play(lesson);
      // As played (paced) is the virtual run event for event: only the run ids and the clock differ.
      for (const side of ['on', 'off'] as const) {
        expect(played[side][0]).toMatchObject({
          event: 'run_start',
          clock: 'paced',
          config: { clock: 'paced' },
        });
        expect(deterministicContent(played[side]), `${side} side as played`).toEqual(
          deterministicContent(virtual[side]),
        );
      }
      const { on, off } = played;
      const endOn = terminateOf(on);
      const endOff = terminateOf(off);
      expect({ reason: endOn.reason, complete: endOn.complete }).toEqual({
        reason: lesson.expect.on.reason,
        complete: lesson.expect.on.complete,
      });
      expect({ reason: endOff.reason, complete: endOff.complete }).toEqual({
        reason: lesson.expect.off.reason,
        complete: lesson.expect.off.complete,
      });

      // Every why line either side shows is borne out by what that side did next.
      expect(findContradictions(on), 'why lines the on side contradicts').toEqual([]);
      expect(findContradictions(off), 'why lines the off side contradicts').toEqual([]);

      const divergence = firstDivergence(on, off);
      expect(divergence, 'the two sides never part').not.toBeNull();
      expect(divergence!.turn).toBe(lesson.diverges.turn);
      const onStep = on.find((e) => e.seq === divergence!.a?.seq);
      expect(onStep?.event).toBe(lesson.diverges.on);

      // Wall time when played live: run-clock duration × the demo time scale.
      const longest = Math.max(endOn.ts, endOff.ts);
      expect(longest * lesson.timeScale).toBeLessThan(30_000);

      // The mechanism's own steps happen with it on, and fewer (here: none) with it off.
      expect(mechanismSteps(lesson.mechanism, on).count, 'steps with the mechanism on').toBeGreaterThan(0);
      expect(mechanismSteps(lesson.mechanism, off).count, 'steps with the mechanism off').toBe(0);

      // What the text says happens on each side, with the numbers it quotes, is what the runs show.
      LESSON_CLAIMS[lesson.slug]!(lesson, { on, off });

      // Judged by the lesson's own measure, the mechanism's side is the better one as played (the
      // paced clock's run times are the virtual run's, so they are judged too) — and no line
      // outside the measure is marked.
      const { totals } = compareRuns(
        { id: 'on', events: on },
        { id: 'off', events: off },
        { criterion: lesson.criterion },
      );
      expect(judgedBetter(totals).side, JSON.stringify(judgedBetter(totals).lines)).toBe('a');
      expect(
        totals.filter((r) => r.better !== null && !(r.id in lesson.criterion.lines)).map((r) => r.id),
      ).toEqual([]);
      // An ending the lesson calls the mechanism's job is one the run really has.
      for (const side of ['on', 'off'] as const)
        if (lesson.expect[side].byDesign) expect(lesson.expect[side].complete).toBe(false);
    });
  },
);
