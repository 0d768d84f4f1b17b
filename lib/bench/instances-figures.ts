import type { EventCounts } from './load-burst';
import { describePace, LOAD_TARGETS } from './load-targets';
import { percentile } from './stats';

/**
 * One side of the instances bench (lib/bench/instances.ts): the same burst of runs on one
 * `next start`, or across two instances and two queue workers. What each figure is, side by
 * side, and the ratio of the deployment's to the one process's.
 */
export interface SideFigures {
  /** What ran the runs, in words ("one `next start`", "two `next start` + two workers …"). */
  processes: string;
  runs: number;
  timeScale: number;
  /** Each POST's wall ms, from sending it to its answer read. */
  postMs: number[];
  /** Wall ms from the POSTs to the last terminate received. */
  wallMs: number;
  events: EventCounts;
  /** SSE connections that dropped and were resumed with Last-Event-ID. */
  reconnects: number;
  /** Each watchdog firing, wherever the runs ran: fire time minus deadline, wall ms. */
  watchdogLateWallMs: number[];
  /** Each process's main-thread event-loop delay p99 over the load, ms, by name ("web A", "worker 1234"). */
  loopDelayP99Ms: Record<string, number>;
  /** The machine's load average (1, 5, 15 min) before the side's processes started. */
  loadBefore: number[];
}

/** A figure of both sides: each side's value, shown, and the deployment's over the one process's. */
export interface SideRow {
  name: string;
  one: string;
  many: string;
  /** The deployment's figure ÷ the one process's, or '—' where a ratio says nothing (a count of 0). */
  ratio: string;
}

const ms = (n: number): string => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 1 : 0)} ms` : '—');

function ratioOf(many: number, one: number): string {
  return Number.isFinite(many) && Number.isFinite(one) && one > 0 ? `${(many / one).toFixed(2)}×` : '—';
}

function worstLoopDelay(f: SideFigures): number {
  const all = Object.values(f.loopDelayP99Ms);
  return all.length > 0 ? Math.max(...all) : Number.NaN;
}

/** The figures both sides are compared on, in the order they are printed. */
export function sideRows(one: SideFigures, many: SideFigures): SideRow[] {
  const numeric = (name: string, of: (f: SideFigures) => number, show = ms): SideRow => ({
    name,
    one: show(of(one)),
    many: show(of(many)),
    ratio: ratioOf(of(many), of(one)),
  });
  const lost = (f: SideFigures): string =>
    `${f.events.lost} of ${f.events.eventsStored} (${f.events.gappedRuns} runs with a gap)`;
  return [
    { name: 'events lost (received vs stored)', one: lost(one), many: lost(many), ratio: '—' },
    numeric('POST answered, p50', (f) => percentile(f.postMs, 50)),
    numeric('POST answered, p95', (f) => percentile(f.postMs, 95)),
    numeric('watchdog fired after its deadline, p99', (f) => percentile(f.watchdogLateWallMs, 99)),
    numeric('event-loop delay p99, the worst main thread', worstLoopDelay),
    numeric(
      'wall time to the last terminate',
      (f) => f.wallMs,
      (n) => `${(n / 1000).toFixed(1)} s`,
    ),
    {
      name: 'load average before (1, 5, 15 min)',
      one: one.loadBefore.map((n) => n.toFixed(2)).join(' '),
      many: many.loadBefore.map((n) => n.toFixed(2)).join(' '),
      ratio: '—',
    },
  ];
}

/**
 * What the instances part is held to: no event lost or out of order on either side, every
 * watchdog firing measured (one lateness a `watchdog_fired` stored), and the deployment's watchdog
 * lateness p99 within the target one process is held to. The other rows are figures, not targets.
 */
export function instancesProblems(one: SideFigures, many: SideFigures): string[] {
  const problems: string[] = [];
  for (const [label, f] of [
    ['one process', one],
    ['the deployment', many],
  ] as const) {
    if (f.events.lost > 0 || f.events.gappedRuns > 0)
      problems.push(
        `${label}: ${f.events.lost} events lost, ${f.events.gappedRuns} runs with a gap or repeat`,
      );
    if (f.watchdogLateWallMs.length !== f.events.watchdogEvents)
      problems.push(
        `${label}: ${f.watchdogLateWallMs.length} watchdog firings measured for ${f.events.watchdogEvents} watchdog_fired events stored`,
      );
  }
  const late = percentile(many.watchdogLateWallMs, 99);
  if (!(late <= LOAD_TARGETS.watchdogLateP99Ms))
    problems.push(
      `the deployment's watchdog lateness p99 ${ms(late)} is over ${LOAD_TARGETS.watchdogLateP99Ms} ms`,
    );
  return problems;
}

/** Both sides as a table (figure, one process, deployment, ratio), then what each side was and its pace. */
export function describeInstances(one: SideFigures, many: SideFigures): string {
  const rows = sideRows(one, many);
  const head: SideRow = { name: 'figure', one: 'one process', many: 'two + two', ratio: 'ratio' };
  const width = (of: (r: SideRow) => string): number => Math.max(...[head, ...rows].map((r) => of(r).length));
  const [w0, w1, w2] = [width((r) => r.name), width((r) => r.one), width((r) => r.many)];
  const line = (r: SideRow): string =>
    `${r.name.padEnd(w0)}  ${r.one.padStart(w1)}  ${r.many.padStart(w2)}  ${r.ratio.padStart(5)}`;
  const loop = (f: SideFigures): string =>
    Object.entries(f.loopDelayP99Ms)
      .map(([who, p99]) => `${who} ${ms(p99)}`)
      .join(', ');
  const side = (label: string, f: SideFigures): string =>
    `${label}: ${f.processes}; ${f.events.eventsReceived} events received, ${f.events.eventsStored} stored, ` +
    `${f.events.watchdogEvents} watchdog_fired (${f.watchdogLateWallMs.length} firings measured), ${f.reconnects} dropped streams resumed; ` +
    `event-loop delay p99 by main thread: ${loop(f)}`;
  return [
    line(head),
    ...rows.map(line),
    side('one process', one),
    side('two + two', many),
    `both: ${one.runs} runs POSTed at once, the same config and seed (${describePace(one)})`,
  ].join('\n      ');
}
