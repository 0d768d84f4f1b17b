import { afterAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import type { RunEvent } from '@/lib/protocol';
import { lessonPlayClock, playLessonHere } from '@/lib/runtime/lesson-sides';
import { startBusyLoops, type BusyLoops } from '@/lib/testing/busy-loops';
import { deterministicContent } from '@/lib/testing/deterministic-log';
import { lessonBySlug } from './index';
import { LESSON_CLAIMS } from './lesson-claims.testkit';

/**
 * A lesson's numbers are the ones on screen at any load. Retry amplification counts what happens
 * while a wait runs (the requests the SDK resends during an outage): on a clock that reads wall
 * time that count follows the machine's speed, and played beside busy loops it came out lower
 * than its text says (7 requests and 5 resends for 8 and 6). Played as the play route plays it
 * (its clock, at a fast pace), alone and beside three busy loops a core, each side must be its
 * virtual-clock run event for event, and the text true of it. (Every lesson's played sides are
 * held to their virtual runs in ./lessons.test.ts, alone; the lessons bench plays them all beside
 * busy loops.)
 */
const PACE = 0.02;
const lesson = lessonBySlug('retry-amplification')!;

let busy: BusyLoops | undefined;
afterAll(async () => {
  await busy?.stop();
});

describe('a lesson whose counts depend on timing, played as the play route plays it', () => {
  it('alone and beside busy loops, each side is its virtual-clock run event for event, and the text holds for the runs as played', async () => {
    const virtual = await playLessonHere({ lesson, clock: { clock: 'virtual' }, runIdPrefix: 'virtual' });
    const alone = await playLessonHere({
      lesson,
      clock: lessonPlayClock(lesson, PACE),
      runIdPrefix: 'alone',
    });
    busy = startBusyLoops({ perCore: 3 });
    expect(busy.count).toBe(3 * os.availableParallelism());
    let loaded: Record<'on' | 'off', RunEvent[]>;
    try {
      loaded = await playLessonHere({ lesson, clock: lessonPlayClock(lesson, PACE), runIdPrefix: 'loaded' });
    } finally {
      await busy.stop();
      busy = undefined;
    }
    for (const [name, played] of [
      ['alone', alone],
      ['beside busy loops', loaded],
    ] as const) {
      for (const side of ['on', 'off'] as const) {
        expect(deterministicContent(played[side]), `${name}, ${side} side`).toEqual(
          deterministicContent(virtual[side]),
        );
      }
      LESSON_CLAIMS[lesson.slug]!(lesson, played);
    }
  }, 180_000);
});
