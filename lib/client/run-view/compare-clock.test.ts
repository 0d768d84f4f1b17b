import { beforeAll, describe, expect, it } from 'vitest';
import { compareRuns } from '@/lib/compare/compare-runs';
import type { RunEvent } from '@/lib/protocol';
import type { Comparison } from '@/lib/protocol/http/compare';
import { runToEnd } from '@/lib/testing/run-to-end';
import { comparisonAt, sideClockNow } from './compare-clock';

/** A run that waits 12 s (Retry-After) before its retry on turn 3, as if on the real clock at half speed. */
let log: RunEvent[];
beforeAll(async () => {
  const events = await runToEnd({
    seed: 11,
    faults: {
      rules: [
        {
          id: 'ra',
          enabled: true,
          when: { kind: 'requests', numbers: [3] },
          action: { type: 'http_error', status: 429, retryAfterSec: 12 },
        },
      ],
      tools: [],
    },
  });
  log = events.map((e) =>
    e.event === 'run_start' ? { ...e, config: { ...e.config, clock: 'real', timeScale: 0.5 } } : e,
  );
});

/** The comparison as the server answers it while A is in its retry's wait (its last event the retry_scheduled). */
function duringTheWait(): Comparison {
  const upTo = log.findIndex((e) => e.event === 'retry_scheduled') + 1;
  return compareRuns({ id: 'live', events: log.slice(0, upTo) }, { id: 'done', events: log });
}

describe("a live side's times between two answers", () => {
  it("move on with the wall clock, at the run's time scale, while nothing is written (a retry's wait)", () => {
    const c = duringTheWait();
    expect(c.a).toMatchObject({ running: true, clock: 'real', timeScale: 0.5 });
    const receivedAt = 1_000_000;
    // 3 s of wall time at half speed: 6 s of run time since the answer.
    const now = {
      a: sideClockNow(c.a, receivedAt, receivedAt + 3_000),
      b: sideClockNow(c.b, receivedAt, receivedAt + 3_000),
    };
    expect(now.a).toBe(c.a.clockTs + 6_000);
    expect(now.b).toBe(c.b.clockTs); // ended: its clock stopped at its terminate
    // A paced side's next event comes when wall time catches up with its run time: it moves on meanwhile, as a real-clock side does.
    expect(sideClockNow({ ...c.a, clock: 'paced' }, 1_000, 4_000)).toBe(c.a.clockTs + 6_000);
    const shown = comparisonAt(c, now);

    const runTime = (x: Comparison) => x.totals.find((r) => r.id === 'durationMs')!;
    expect(runTime(c).a).toBe(c.a.clockTs);
    expect(runTime(shown).a).toBe(c.a.clockTs + 6_000);
    expect(runTime(shown).b).toBe(runTime(c).b);

    const turn3 = (x: Comparison) => x.turns.find((t) => t.turn === 3)!;
    expect(turn3(c).a!.finished).toBe(false);
    expect(turn3(shown).a!.durationMs).toBe(c.a.clockTs + 6_000 - turn3(c).a!.startMs);
    // Turns that ended and the finished side are the same objects: nothing to redraw.
    expect(shown.turns[0]).toBe(c.turns[0]);
    expect(turn3(shown).b).toBe(turn3(c).b);
  });

  it('stay where the log put them for a virtual-clock side, a finished one, and before the first answer', () => {
    const c = duringTheWait();
    expect(sideClockNow({ ...c.a, clock: 'virtual' }, 1_000, 9_000)).toBe(c.a.clockTs);
    expect(sideClockNow({ ...c.a, running: false }, 1_000, 9_000)).toBe(c.a.clockTs);
    expect(sideClockNow(c.a, 0, 9_000)).toBe(c.a.clockTs);
    // A wall clock read before the answer arrived never moves a clock back.
    expect(sideClockNow(c.a, 9_000, 8_000)).toBe(c.a.clockTs);
    const finished = compareRuns({ id: 'a', events: log }, { id: 'b', events: log });
    expect(comparisonAt(finished, { a: 1e9, b: 1e9 })).toBe(finished);
  });

  it("stop at the terminate's own run time once the stream has said it, not one re-read later", () => {
    // The page's last answer holds everything but the terminate: A is live, its clock counting.
    const terminate = log[log.length - 1]!;
    expect(terminate.event).toBe('terminate');
    const c = compareRuns({ id: 'live', events: log.slice(0, -1) }, { id: 'done', events: log });
    expect(c.a.running).toBe(true);
    const receivedAt = 1_000_000;
    // The terminate arrives on the stream; the re-read takes a while (here 800 ms of wall time,
    // 1.6 s of run time at half speed) before its answer says A ended.
    const wall = receivedAt + (terminate.ts - c.a.clockTs) * 0.5 + 800;
    const runTime = (x: Comparison) => x.totals.find((r) => r.id === 'durationMs')!.a;
    // Without the terminate's time the clock counts past the end: the overshoot that was shown.
    expect(runTime(comparisonAt(c, { a: sideClockNow(c.a, receivedAt, wall), b: 0 }))).toBe(
      terminate.ts + 1_600,
    );
    const shown = comparisonAt(c, {
      a: sideClockNow(c.a, receivedAt, wall, terminate.ts),
      b: sideClockNow(c.b, receivedAt, wall),
    });
    expect(runTime(shown)).toBe(terminate.ts);
    // …and it is the same time the re-read's answer then gives.
    const after = compareRuns({ id: 'live', events: log }, { id: 'done', events: log });
    expect(
      runTime(comparisonAt(after, { a: sideClockNow(after.a, wall, wall + 5_000, terminate.ts), b: 0 })),
    ).toBe(terminate.ts);
    // The last turn stops at the terminate too.
    const last = shown.turns.filter((t) => t.a).at(-1)!.a!;
    expect(last.startMs + last.durationMs).toBeLessThanOrEqual(terminate.ts);
  });
});
