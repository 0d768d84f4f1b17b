import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createRandom, RealClock, VirtualClock, type Clock } from '@/lib/clock';
import { EventLog, runLoop } from '@/lib/engine';
import { resolveRecovery, RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { createProvider } from '@/lib/providers';
import { createPolicy, createSimAnthropic, type Policy } from '@/lib/sim';
import { judgeTask } from '@/lib/runtime/judge-task';
import { sharedRunnerPool } from '@/lib/tools/check/runner-pool';
import { createToolbox, createToolExecutor, createWorkspace, getScenario } from '@/lib/tools';
import { percentile } from './stats';

/** Test files a model could write: each hung, crashed or fooled the old in-process check. */
export const HOSTILE_TEST_FILES: Record<string, string> = {
  'infinite loop': 'while (true) {}',
  'huge allocation': 'const keep = []; for (;;) keep.push(new Array(1e6).fill(7));',
  'forged report':
    'console.log("PASS"); JSON.stringify = () => \'{"results":[{"name":"x","ok":true}]}\'; test("x", () => { throw new Error("no"); });',
  'toString bomb': 'JSON.stringify = () => ({ toString() { for (;;) {} } }); test("x", () => {});',
};

/** A real clock that records how late each of its timers fired (wall ms past the deadline). */
class LatenessClock implements Clock {
  readonly kind = 'real' as const;
  readonly lateness: number[] = [];
  private readonly inner: RealClock;

  constructor(readonly timeScale: number) {
    this.inner = new RealClock(timeScale);
  }

  now(): number {
    return this.inner.now();
  }

  hold<T>(work: Promise<T>): Promise<T> {
    return work;
  }

  freeze<T>(work: Promise<T>): Promise<T> {
    return this.inner.freeze(work);
  }

  setTimer(ms: number, callback: () => void): () => void {
    const due = performance.now() + Math.max(0, ms) * this.timeScale;
    return this.inner.setTimer(ms, () => {
      this.lateness.push(performance.now() - due);
      callback();
    });
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const due = performance.now() + Math.max(0, ms) * this.timeScale;
    await this.inner.sleep(ms, signal);
    this.lateness.push(performance.now() - due);
  }
}

/** A model that writes one hostile test file after another (from `offset` in the list) and runs the check on each, until told to stop. */
function hostilePolicy(stopped: () => boolean, offset = 0): Policy {
  const kinds = Object.keys(HOSTILE_TEST_FILES);
  return (request) => {
    const turn = request.messages.filter((m) => m.role === 'assistant').length;
    if (stopped() && turn % 2 === 0) return { text: 'Done.', toolCalls: [] };
    const kind = kinds[(Math.floor(turn / 2) + offset) % kinds.length]!;
    if (turn % 2 === 0) {
      const content = HOSTILE_TEST_FILES[kind]!;
      return {
        text: `Writing a test (${kind}).`,
        toolCalls: [
          { name: 'write_file', argsText: JSON.stringify({ path: 'test/slugify.test.js', content }) },
        ],
      };
    }
    return { text: 'Running the check.', toolCalls: [{ name: 'run_check', argsText: '{}' }] };
  };
}

/** One run of the default scenario through the engine, on the given clock and simulated model (its own share of the check pool). */
async function runScenario(options: {
  clock: Clock;
  policy?: Policy;
  seed: number;
  runId: string;
}): Promise<RunEvent[]> {
  const scenario = getScenario('fix-failing-test')!;
  const config = RunConfigSchema.parse({
    provider: { vendor: 'sim-anthropic' },
    seed: options.seed,
    budgets: { maxIterations: 200, maxCostUsd: 1000 },
  });
  const recovery = resolveRecovery('codesmith');
  const workspace = createWorkspace({ files: scenario.files });
  const toolbox = createToolbox({ scenario });
  const events: RunEvent[] = [];
  const log = new EventLog(options.runId, options.clock, (event) => events.push(event));
  const sim = createSimAnthropic({
    clock: options.clock,
    random: createRandom(options.seed),
    policy: options.policy ?? createPolicy('worker', scenario),
  });
  await runLoop({
    config,
    recovery,
    provider: createProvider({ vendor: 'sim-anthropic', fetch: sim, maxRetries: 0 }),
    model: 'claude-sim-sonnet',
    fallbackModel: 'claude-sim-haiku',
    system: 'You are a careful coding agent.',
    task: scenario.task,
    tools: toolbox.specs(),
    executor: createToolExecutor({
      toolbox,
      workspace,
      clock: options.clock,
      random: createRandom(options.seed),
      config: recovery.tools,
      faults: () => [],
      emit: log.emit,
      share: options.runId,
    }),
    clock: options.clock,
    random: createRandom(options.seed),
    emit: log.emit,
    signal: new AbortController().signal,
    judgeTask: () =>
      judgeTask({ scenario, workspace, clock: options.clock, task: scenario.task, share: options.runId }),
  });
  return events;
}

/** How each hostile run_check ended: its status, and the report's first line of detail. */
function checkOutcomes(events: readonly RunEvent[]): string[] {
  return events.flatMap((e) => {
    if (e.event !== 'tool_call' || e.tool !== 'run_check') return [];
    if (e.status === 'rate_limited') return ['refused by the check rate'];
    return [`${e.is_error ? 'is_error' : 'ok'}: ${(e.result ?? '').split('\n')[1] ?? ''}`];
  });
}

/** Runs `count` hostile runs until `other` settles, then lets them finish their turn; their events. */
async function besideHostileRuns<T>(options: {
  count: number;
  clock: () => Clock;
  other: () => Promise<T>;
}): Promise<{ other: T; hostile: RunEvent[][] }> {
  let otherDone = false;
  const hostile = Array.from({ length: options.count }, (_, i) =>
    runScenario({
      clock: options.clock(),
      policy: hostilePolicy(() => otherDone, i),
      seed: 12 + i,
      runId: `hostile-${i}`,
    }),
  );
  try {
    const other = await options.other();
    otherDone = true;
    return { other, hostile: await Promise.all(hostile) };
  } finally {
    otherDone = true;
  }
}

export interface HostileCheckFigures {
  /** Hostile runs beside the other run (the timer figure). */
  hostileRuns: number;
  /** Hostile checks that ended, by how they ended. */
  hostileResults: string[];
  /** Largest wall ms any of the other run's timers (stream pace, waits) fired late, alone and beside. */
  aloneMaxLateMs: number;
  aloneP99LateMs: number;
  besideMaxLateMs: number;
  besideP99LateMs: number;
  /** This process's event-loop delay while the other run ran alone (max, ms): the machine's own noise. */
  aloneLoopDelayMaxMs: number;
  /** This process's event-loop delay while the hostile runs ran (max, p99; ms). */
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  otherRunEnded: string;
}

/**
 * The figure "model-written test files cannot delay another run's events by more than 100 ms":
 * the default scenario runs on the real clock, first alone, then beside `hostileRuns` runs whose
 * model writes hostile test files (busy loops, runaway allocations) and runs the check on each.
 * Every event of the other run waits on its clock, so how late its timers fire is how late its
 * events are.
 */
export async function measureHostileCheck(options: {
  timeScale: number;
  hostileRuns: number;
}): Promise<HostileCheckFigures> {
  const alone = new LatenessClock(options.timeScale);
  const aloneHistogram = monitorEventLoopDelay({ resolution: 5 });
  aloneHistogram.enable();
  await runScenario({ clock: alone, seed: 11, runId: 'other-alone' });
  aloneHistogram.disable();

  const beside = new LatenessClock(options.timeScale);
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const { other, hostile } = await besideHostileRuns({
    count: options.hostileRuns,
    clock: () => new RealClock(1),
    other: () => runScenario({ clock: beside, seed: 11, runId: 'other' }),
  });
  histogram.disable();

  const end = other.at(-1);
  return {
    hostileRuns: options.hostileRuns,
    hostileResults: hostile.flatMap(checkOutcomes),
    aloneMaxLateMs: Math.max(...alone.lateness),
    aloneP99LateMs: percentile(alone.lateness, 99),
    besideMaxLateMs: Math.max(...beside.lateness),
    besideP99LateMs: percentile(beside.lateness, 99),
    aloneLoopDelayMaxMs: aloneHistogram.max / 1e6,
    loopDelayMaxMs: histogram.max / 1e6,
    loopDelayP99Ms: histogram.percentile(99) / 1e6,
    otherRunEnded: describeEnd(end),
  };
}

function describeEnd(end: RunEvent | undefined): string {
  return end?.event === 'terminate' ? `${end.reason}${end.complete ? ' (complete)' : ''}` : 'no terminate';
}

export interface CheckStarvationFigures {
  hostileRuns: number;
  /** Wall ms of a normal virtual-clock run (its checks and verdict included), alone and beside the hostile runs. */
  aloneWallMs: number;
  besideWallMs: number;
  otherRunEnded: string;
  /** Hostile checks that ended while it ran, by how they ended. */
  hostileResults: string[];
}

/**
 * The figure "one run's checks cannot starve another's": a normal run of the default scenario on
 * the virtual clock (its wall time is its checks' wall time and its waits for a slot of the
 * check pool), alone and beside `hostileRuns` virtual-clock runs that call run_check in a loop
 * (nothing of theirs waits on wall time: each has a check waiting the moment its last one ends).
 */
export async function measureCheckStarvation(options: {
  hostileRuns: number;
}): Promise<CheckStarvationFigures> {
  const started = performance.now();
  await runScenario({ clock: new VirtualClock(), seed: 21, runId: 'normal-alone' });
  const aloneWallMs = performance.now() - started;

  let besideWallMs = 0;
  const { other, hostile } = await besideHostileRuns({
    count: options.hostileRuns,
    clock: () => new VirtualClock(),
    other: async () => {
      // Let the hostile runs fill the pool first (every slot busy, checks waiting), as on a busy server.
      const pool = sharedRunnerPool();
      for (let waited = 0; waited < 20_000; waited += 50) {
        if (pool.state().waiting > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const begin = performance.now();
      const events = await runScenario({ clock: new VirtualClock(), seed: 21, runId: 'normal' });
      besideWallMs = performance.now() - begin;
      return events;
    },
  });
  return {
    hostileRuns: options.hostileRuns,
    aloneWallMs,
    besideWallMs,
    otherRunEnded: describeEnd(other.at(-1)),
    hostileResults: hostile.flatMap(checkOutcomes),
  };
}
