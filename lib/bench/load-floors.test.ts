import { describe, expect, it } from 'vitest';
import type { LoadFigures } from './load';
import { describeLoad, describePace, loadTargets } from './load-targets';

/** Figures as the load bench measures them; each test changes what it is about. */
function figures(over: Partial<LoadFigures> = {}, server: Partial<LoadFigures['server']> = {}): LoadFigures {
  return {
    runThreads: 'default',
    runs: 100,
    timeScale: 0.04,
    postMs: Array.from({ length: 100 }, (_, i) => 400 + i),
    floorPostMs: Array.from({ length: 100 }, (_, i) => 300 + i),
    plainPostMs: Array.from({ length: 100 }, () => 40),
    wallMs: 30_000,
    eventsReceived: 17_000,
    eventsStored: 17_000,
    lost: 0,
    gappedRuns: 0,
    reconnects: 0,
    watchdogEvents: 200,
    mainThreadCpuMs: 3000,
    postBurstCpuMs: 590,
    floorBurstCpuMs: 440,
    postBurstWallMs: 800,
    floorBurstWallMs: 600,
    postBurstOtherCpuMs: 900,
    floorBurstOtherCpuMs: 30,
    loadBefore: [1.2, 2, 3],
    buildAgeMin: 1,
    built: false,
    server: {
      loopDelay: { p50: 10, p99: 20, max: 30, samples: 100 },
      watchdogLateWallMs: Array.from({ length: 200 }, () => 5),
      bareTimerLateWallMs: Array.from({ length: 1000 }, () => 2),
      runThreadTimerLateWallMs: Array.from({ length: 1000 }, () => 3),
      watchdogDueAtMs: Array.from({ length: 200 }, (_, i) => 1000 * i),
      cpuMs: 10_000,
      wallMs: 30_000,
      rssMb: 400,
      loadAverage: [5, 4, 3],
      ...server,
    },
    ...over,
  };
}

describe('the load bench: a missed figure shows the floor measured beside it', () => {
  it('a late watchdog is shown beside the same bare timer on an idle thread and on the run threads', () => {
    const f = figures(
      {},
      {
        watchdogLateWallMs: Array.from({ length: 200 }, (_, i) => (i < 190 ? 5 : 120)),
        bareTimerLateWallMs: Array.from({ length: 1000 }, (_, i) => (i < 980 ? 2 : 55)),
        runThreadTimerLateWallMs: Array.from({ length: 1000 }, (_, i) => (i < 980 ? 3 : 90)),
        // 30 deadlines 1 ms apart, the rest a second apart
        watchdogDueAtMs: Array.from({ length: 200 }, (_, i) => (i < 30 ? i : 1000 * i)),
      },
    );
    const watchdog = loadTargets(f)[0]!;
    expect(watchdog.met).toBe(false);
    expect(watchdog.floor).toContain('on an idle thread of the same process, beside the load: p99 55.0 ms');
    expect(watchdog.floor).toContain('on the run threads, beside their runs: p99 90.0 ms');
    expect(watchdog.floor).toContain('at most 30 watchdogs fell due within 50 ms of each other');
    expect(describeLoad(f)).toContain('floor: a bare 20 ms timer');
  });

  it('a slow POST burst is shown with the main-thread CPU a POST took, beside the no-op route’s', () => {
    const f = figures({ postMs: Array.from({ length: 100 }, () => 900) });
    const post = loadTargets(f)[2]!;
    expect(post.met).toBe(false);
    expect(post.floor).toContain('5.9 ms here');
    expect(post.floor).toContain('4.4 ms for the route that does nothing');
    // the run threads' start, on the same two cores, while the POSTs wait
    expect(post.floor).toContain(
      'took 0.90 s of CPU in 0.80 s (1.13 of a core) until the last POST was answered, 0.03 s of CPU in 0.60 s (0.05 of a core) in the floor',
    );
  });

  it('with every run on the main thread, the POST floor names no run thread', () => {
    const post = loadTargets(
      figures({ runThreads: '0', postMs: Array.from({ length: 100 }, () => 900) }),
    )[2]!;
    expect(post.floor).toContain('start the run on this thread');
    expect(post.floor).toContain("no run threads: V8's and libuv's helpers");
    expect(post.floor).not.toContain('run thread starting');
  });

  it('each pass says its time scale and what it means against the target', () => {
    expect(describePace({ runs: 100, timeScale: 1 })).toBe(
      "time scale 1: every run at the real clock's pace, as the target is set",
    );
    const stress = describePace({ runs: 100, timeScale: 0.04 });
    expect(stress).toContain("time scale 0.04: each run's clock 25× faster than the wall");
    expect(stress).toContain('100 runs put the deadlines and work of 2,500 real-clock runs');
    expect(stress).toContain('harder than the target');
    expect(describePace({ runs: 100, timeScale: 0.3 })).toContain('3.3× faster');
    expect(describeLoad(figures({ timeScale: 0.04 }))).toContain('(time scale 0.04: each run');
  });

  it('the stress pass shows every floor, met figures too', () => {
    const f = figures();
    expect(describeLoad(f, { floors: 'always' })).toContain('floor: a bare 20 ms timer');
    expect(describeLoad(f, { floors: 'always' })).toContain('floor: main-thread CPU a POST');
    expect(describeLoad(f)).not.toContain('floor:');
  });

  it('a met figure prints no floor line, and the machine’s own load is told apart from the bench’s', () => {
    const text = describeLoad(figures());
    expect(loadTargets(figures()).every((t) => t.met)).toBe(true);
    expect(text).not.toContain('floor:');
    expect(text).toContain('load average 1.20 2.00 3.00 before the server started (the machine)');
    expect(text).toContain('5.00 4.00 3.00 at the end');
  });
});
