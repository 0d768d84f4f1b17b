import { beforeAll, describe, expect, it } from 'vitest';
import type { RunConfigInput, RunEvent } from '@/lib/protocol';
import { lessonBySlug, lessonRunConfig } from '@/lib/lessons';
import { launchRun } from '@/lib/runtime/launch-run';
import { planFork } from '@/lib/runtime/plan-fork';
import { ofType, runToEnd } from '@/lib/testing/run-to-end';
import { ComparisonFold, compareRuns } from './compare-runs';
import { runTotals } from './run-totals';

/** Real runs on the virtual clock, one for each mechanism a comparison has to read. */
const overload: RunConfigInput['faults'] = {
  rules: [
    {
      id: 'o',
      enabled: true,
      when: { kind: 'requests', numbers: [3] },
      action: { type: 'http_error', status: 529 },
    },
  ],
  tools: [],
};
const logs: Record<string, RunEvent[]> = {};

async function lessonRun(slug: string, side: 'on' | 'off'): Promise<RunEvent[]> {
  return runToEnd(lessonRunConfig(lessonBySlug(slug)!, side, { clock: 'virtual' }));
}

async function forkOf(parent: RunEvent[]): Promise<RunEvent[]> {
  const start = ofType(parent, 'run_start')[0]!;
  const plan = planFork({
    spec: { runId: 'parent', atTurn: 2, provider: 'sim-openai' },
    parent: { config: start.config, running: false },
    events: parent,
  });
  if (!plan.ok) throw new Error(plan.problems.join('; '));
  const child: RunEvent[] = [];
  await launchRun({ runId: 'child', config: plan.config, fork: plan.fork, onEvent: (e) => child.push(e) })
    .done;
  return child;
}

beforeAll(async () => {
  logs.retryOn = await runToEnd({ seed: 7, faults: overload });
  logs.retryOff = await runToEnd({ seed: 7, faults: overload, recovery: { retry: { enabled: false } } });
  logs.watchdogOn = await lessonRun('stream-idle-watchdog', 'on');
  logs.watchdogOff = await lessonRun('stream-idle-watchdog', 'off');
  logs.compactionOn = await lessonRun('old-result-compaction', 'on');
  logs.compactionOff = await lessonRun('old-result-compaction', 'off');
  logs.takeover = await runToEnd({
    seed: 7,
    provider: { vendor: 'sim-anthropic', thinking: true },
    swaps: [
      { atTurn: 2, vendor: 'sim-openai', model: '' },
      { atTurn: 3, vendor: 'sim-anthropic', model: '' },
    ],
  });
  logs.plain = await runToEnd({ seed: 7, provider: { vendor: 'sim-anthropic', thinking: true } });
  logs.parent = await runToEnd({ seed: 7 });
  logs.fork = await forkOf(logs.parent);
}, 120_000);

/** Feeds both logs to one fold in bursts of the given sizes, taking turns, and checks every answer against compareRuns of the prefixes. */
function followInBursts(a: RunEvent[], b: RunEvent[], burst: (i: number) => number): number {
  const fold = new ComparisonFold();
  let atA = 0;
  let atB = 0;
  let checks = 0;
  for (let i = 0; atA < a.length || atB < b.length; i += 1) {
    const side = i % 2 === 0 ? 'a' : 'b';
    const log = side === 'a' ? a : b;
    const from = side === 'a' ? atA : atB;
    const to = Math.min(log.length, from + burst(i));
    fold.add(side, log.slice(from, to));
    if (side === 'a') atA = to;
    else atB = to;
    if (atA === 0 || atB === 0) continue;
    // Byte for byte: the JSON the route would send.
    expect(JSON.stringify(fold.comparison('a', 'b'))).toBe(
      JSON.stringify(compareRuns({ id: 'a', events: a.slice(0, atA) }, { id: 'b', events: b.slice(0, atB) })),
    );
    checks += 1;
  }
  return checks;
}

describe('the comparison folded as the logs grow equals the comparison of the whole logs', () => {
  const pairs: [string, string, string, (events: Record<string, RunEvent[]>) => void][] = [
    [
      'retries: retry on vs off',
      'retryOn',
      'retryOff',
      (l) => expect(ofType(l.retryOn!, 'retry_scheduled').length).toBeGreaterThan(0),
    ],
    [
      'watchdog: on vs off',
      'watchdogOn',
      'watchdogOff',
      (l) => expect(ofType(l.watchdogOn!, 'watchdog_fired').length).toBeGreaterThan(0),
    ],
    [
      'compaction: on vs off',
      'compactionOn',
      'compactionOff',
      (l) => expect(ofType(l.compactionOn!, 'compaction').length).toBeGreaterThan(0),
    ],
    [
      'takeover vs the same run on one vendor',
      'takeover',
      'plain',
      (l) => expect(ofType(l.takeover!, 'swap').length).toBe(2),
    ],
    ['a run vs its fork', 'parent', 'fork', (l) => expect(ofType(l.fork!, 'forked_from').length).toBe(1)],
  ];

  it.each(pairs)('%s: event by event', (_name, a, b, hasMechanism) => {
    hasMechanism(logs);
    const checks = followInBursts(logs[a]!, logs[b]!, () => 1);
    expect(checks).toBeGreaterThan(logs[a]!.length);
  });

  it.each(pairs)('%s: in uneven bursts, one side far ahead of the other', (_name, a, b) => {
    followInBursts(logs[a]!, logs[b]!, (i) => (i % 2 === 0 ? 1 + ((i * 7) % 23) : 1 + ((i * 3) % 5)));
  });

  it('a run against itself never diverges, and the fold holds no step once both have ended', () => {
    const fold = new ComparisonFold();
    fold.add('a', logs.takeover!);
    fold.add('b', logs.takeover!);
    expect(fold.comparison('a', 'b').divergence).toBeNull();
    expect(fold.scan.held).toBe(0);
  });

  it("says which of a fork's turns were copied from its parent, and where each turn of a takeover ran", () => {
    const fork = compareRuns({ id: 'parent', events: logs.parent! }, { id: 'child', events: logs.fork! });
    expect(fork.b.forkedFrom).toEqual({ runId: 'parent', turn: 2 });
    expect(fork.a.forkedFrom).toBeNull();
    const copied = fork.turns.filter((t) => t.b?.copied).map((t) => t.turn);
    expect(copied).toEqual([1, 2]);
    expect(fork.turns.every((t) => t.a?.copied !== true)).toBe(true);
    // The copied turns ran on the parent's vendor; the fork's own on the vendor it moved to.
    expect(fork.turns[0]!.b).toMatchObject({ vendor: 'sim-anthropic' });
    expect(fork.turns[2]!.b).toMatchObject({ vendor: 'sim-openai' });

    const takeover = compareRuns({ id: 't', events: logs.takeover! }, { id: 'p', events: logs.plain! });
    expect(takeover.turns.slice(0, 4).map((t) => t.a?.vendor)).toEqual([
      'sim-anthropic',
      'sim-openai',
      'sim-anthropic',
      'sim-anthropic',
    ]);
    expect(takeover.turns.slice(0, 4).map((t) => t.b?.vendor)).toEqual([
      'sim-anthropic',
      'sim-anthropic',
      'sim-anthropic',
      'sim-anthropic',
    ]);
  });

  it("says what part of a fork's totals it copied from its parent: its turns, their run time, tokens and cost", () => {
    const parent = logs.parent!;
    const fork = logs.fork!;
    const forked = ofType(fork, 'forked_from')[0]!;
    // The parent's events the fork copied: everything before its turn 3.
    const copiedFromParent = parent.slice(
      0,
      parent.findIndex((e) => e.event === 'iteration_start' && e.iteration === 3),
    );
    const copiedTotals = runTotals(copiedFromParent);
    const c = compareRuns({ id: 'parent', events: parent }, { id: 'child', events: fork });
    expect(c.a.copied).toBeNull();
    expect(c.b.copied).toEqual({
      turns: 2,
      durationMs: copiedFromParent.at(-1)!.ts,
      inputTokens: copiedTotals.inputTokens,
      outputTokens: copiedTotals.outputTokens,
      usd: forked.inherited.usd,
    });
    expect(copiedTotals.usd).toBeCloseTo(forked.inherited.usd, 9);
    const copied = c.b.copied!;
    expect(copied.durationMs).toBeGreaterThan(0);
    // The fork's run time counts the copied part: what is left is the time of its own turns.
    const runTime = c.totals.find((r) => r.id === 'durationMs')!;
    const ownTurns = c.turns.filter((t) => t.b && !t.b.copied).map((t) => t.b!);
    expect(Number(runTime.b) - copied.durationMs).toBe(
      ownTurns.at(-1)!.startMs + ownTurns.at(-1)!.durationMs - ownTurns[0]!.startMs,
    );
    expect(Number(runTime.b)).toBeGreaterThan(copied.durationMs);
    // While the fork is still copying, the copied part is what has been copied so far.
    const midCopy = compareRuns({ id: 'parent', events: parent }, { id: 'child', events: fork.slice(0, 10) });
    expect(midCopy.b.copied!.durationMs).toBe(fork[9]!.ts);
    expect(midCopy.b.copied!.turns).toBe(2);
  });
});
