import { describe, expect, it } from 'vitest';
import { describeInstances, instancesProblems, type SideFigures, sideRows } from './instances-figures';

/** One side as the instances bench measures it; each test changes what it is about. */
function side(over: Partial<SideFigures> = {}): SideFigures {
  return {
    processes: 'one `next start`',
    runs: 100,
    timeScale: 0.25,
    postMs: Array.from({ length: 100 }, (_, i) => 100 + i),
    wallMs: 70_000,
    events: { eventsReceived: 17_000, eventsStored: 17_000, lost: 0, gappedRuns: 0, watchdogEvents: 200 },
    reconnects: 0,
    watchdogLateWallMs: Array.from({ length: 200 }, (_, i) => (i < 197 ? 4 : 30)),
    loopDelayP99Ms: { web: 20 },
    loadBefore: [3, 2, 1],
    ...over,
  };
}

describe('the instances bench, one process beside two instances and two workers', () => {
  it('shows each figure of both sides with the deployment over the one process', () => {
    const many = side({
      postMs: Array.from({ length: 100 }, (_, i) => 200 + 2 * i),
      wallMs: 84_000,
      loopDelayP99Ms: { 'web A': 12, 'web B': 15, 'worker 7': 40 },
    });
    const rows = Object.fromEntries(sideRows(side(), many).map((r) => [r.name, r]));
    expect(rows['POST answered, p50']).toEqual({
      name: 'POST answered, p50',
      one: '149 ms',
      many: '298 ms',
      ratio: '2.00×',
    });
    expect(rows['POST answered, p95']!.ratio).toBe('2.00×');
    expect(rows['watchdog fired after its deadline, p99']).toMatchObject({
      one: '30 ms',
      many: '30 ms',
      ratio: '1.00×',
    });
    // The worst main thread of the deployment (a worker's), against the one process's only one.
    expect(rows['event-loop delay p99, the worst main thread']).toMatchObject({
      many: '40 ms',
      ratio: '2.00×',
    });
    expect(rows['wall time to the last terminate']).toMatchObject({
      one: '70.0 s',
      many: '84.0 s',
      ratio: '1.20×',
    });
    expect(rows['events lost (received vs stored)']).toMatchObject({
      one: '0 of 17000 (0 runs with a gap)',
      ratio: '—',
    });
  });

  it('gives no ratio where the one process measured nothing', () => {
    const rows = sideRows(
      side({ watchdogLateWallMs: [], events: { ...side().events, watchdogEvents: 0 } }),
      side(),
    );
    expect(rows.find((r) => r.name.startsWith('watchdog'))).toMatchObject({ one: '—', ratio: '—' });
  });

  it('holds both sides to no event lost and a lateness for every watchdog_fired, and the deployment to the watchdog target', () => {
    expect(instancesProblems(side(), side())).toEqual([]);
    const lossy = side({ events: { ...side().events, lost: 3, gappedRuns: 1 } });
    expect(instancesProblems(side(), lossy)).toEqual([
      'the deployment: 3 events lost, 1 runs with a gap or repeat',
    ]);
    const unmeasured = side({ watchdogLateWallMs: [4] });
    expect(instancesProblems(unmeasured, side())).toEqual([
      'one process: 1 watchdog firings measured for 200 watchdog_fired events stored',
    ]);
    const late = side({ watchdogLateWallMs: Array.from({ length: 200 }, () => 80) });
    expect(instancesProblems(side(), late)).toEqual([
      "the deployment's watchdog lateness p99 80 ms is over 50 ms",
    ]);
    // The one process's lateness is the load part's to judge; here it is a figure beside the deployment's.
    expect(instancesProblems(late, side())).toEqual([]);
  });

  it('prints the table with a line a side and the pace both ran at', () => {
    const text = describeInstances(
      side(),
      side({ processes: 'two + two', loopDelayP99Ms: { 'web A': 12, 'worker 7': 40 } }),
    );
    const lines = text.split('\n').map((l) => l.trim());
    expect(lines[0]).toMatch(/^figure\s+one process\s+two \+ two\s+ratio$/);
    expect(lines).toContain(
      'two + two: two + two; 17000 events received, 17000 stored, 200 watchdog_fired (200 firings measured), 0 dropped streams resumed; event-loop delay p99 by main thread: web A 12 ms, worker 7 40 ms',
    );
    expect(lines.at(-1)).toMatch(
      /^both: 100 runs POSTed at once, the same config and seed \(time scale 0\.25: each run's clock 4× faster/,
    );
  });
});
