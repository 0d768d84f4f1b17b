import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createRandom, RealClock, type Clock } from '@/lib/clock';
import { EventLog, runLoop } from '@/lib/engine';
import { resolveRecovery, RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { createProvider } from '@/lib/providers';
import { createPolicy, createSimAnthropic, type Policy } from '@/lib/sim';
import { createToolbox, createToolExecutor, createWorkspace, getScenario } from '@/lib/tools';
import { percentile } from './stats';

/** Test files a model could write: each hung, crashed or fooled the old in-process check. */
export const HOSTILE_TEST_FILES: Record<string, string> = {
  'infinite loop': 'while (true) {}',
  'huge allocation': 'const keep = []; for (;;) keep.push(new Array(1e6).fill(7));',
  'forged report': 'console.log("PASS"); JSON.stringify = () => \'{"results":[{"name":"x","ok":true}]}\'; test("x", () => { throw new Error("no"); });',
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

/** A model that writes one hostile test file after another and runs the check on each, until told to stop. */
function hostilePolicy(stopped: () => boolean): Policy {
  const kinds = Object.keys(HOSTILE_TEST_FILES);
  return (request) => {
    const turn = request.messages.filter((m) => m.role === 'assistant').length;
    if (stopped() && turn % 2 === 0) return { text: 'Done.', toolCalls: [] };
    const kind = kinds[Math.floor(turn / 2) % kinds.length]!;
    if (turn % 2 === 0) {
      const content = HOSTILE_TEST_FILES[kind]!;
      return { text: `Writing a test (${kind}).`, toolCalls: [{ name: 'write_file', argsText: JSON.stringify({ path: 'test/slugify.test.js', content }) }] };
    }
    return { text: 'Running the check.', toolCalls: [{ name: 'run_check', argsText: '{}' }] };
  };
}

/** One run of the default scenario through the engine, on the given clock and simulated model. */
async function runScenario(options: { clock: Clock; policy?: Policy; seed: number }): Promise<RunEvent[]> {
  const scenario = getScenario('fix-failing-test')!;
  const config = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, seed: options.seed, budgets: { maxIterations: 200, maxCostUsd: 1000 } });
  const recovery = resolveRecovery('codesmith');
  const workspace = createWorkspace({ files: scenario.files });
  const toolbox = createToolbox({ scenario });
  const events: RunEvent[] = [];
  const log = new EventLog(`bench-${options.seed}`, options.clock, (event) => events.push(event));
  const sim = createSimAnthropic({ clock: options.clock, random: createRandom(options.seed), policy: options.policy ?? createPolicy('worker', scenario) });
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
    }),
    clock: options.clock,
    random: createRandom(options.seed),
    emit: log.emit,
    signal: new AbortController().signal,
  });
  return events;
}

export interface HostileCheckFigures {
  /** Hostile checks that ended, by how they ended. */
  hostileResults: string[];
  /** Largest wall ms any of the other run's timers (stream pace, waits) fired late, alone and beside. */
  aloneMaxLateMs: number;
  besideMaxLateMs: number;
  besideP99LateMs: number;
  /** This process's event-loop delay while the other run ran alone (max, ms): the machine's own noise. */
  aloneLoopDelayMaxMs: number;
  /** This process's event-loop delay while the hostile run ran (max, p99; ms). */
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  otherRunEnded: string;
}

/**
 * The figure "a model-written test file cannot delay another run's events by more than
 * 100 ms": the default scenario runs on the real clock, first alone, then beside a run whose
 * model writes hostile test files and runs the check on each. Every event of the other run
 * waits on its clock, so how late its timers fire is how late its events are.
 */
export async function measureHostileCheck(options: { timeScale: number }): Promise<HostileCheckFigures> {
  const alone = new LatenessClock(options.timeScale);
  const aloneHistogram = monitorEventLoopDelay({ resolution: 5 });
  aloneHistogram.enable();
  await runScenario({ clock: alone, seed: 11 });
  aloneHistogram.disable();

  const beside = new LatenessClock(options.timeScale);
  const hostileClock = new RealClock(1);
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let otherDone = false;
  const hostile = runScenario({ clock: hostileClock, policy: hostilePolicy(() => otherDone), seed: 12 });
  const other = await runScenario({ clock: beside, seed: 11 });
  otherDone = true;
  const hostileEvents = await hostile;
  histogram.disable();

  const results = hostileEvents.flatMap((e) =>
    e.event === 'tool_call' && e.tool === 'run_check' ? [`${e.is_error ? 'is_error' : 'ok'}: ${(e.result ?? '').split('\n')[1] ?? ''}`] : [],
  );
  const end = other.at(-1);
  return {
    hostileResults: results,
    aloneMaxLateMs: Math.max(...alone.lateness),
    besideMaxLateMs: Math.max(...beside.lateness),
    besideP99LateMs: percentile(beside.lateness, 99),
    aloneLoopDelayMaxMs: aloneHistogram.max / 1e6,
    loopDelayMaxMs: histogram.max / 1e6,
    loopDelayP99Ms: histogram.percentile(99) / 1e6,
    otherRunEnded: end?.event === 'terminate' ? `${end.reason}${end.complete ? ' (complete)' : ''}` : 'no terminate',
  };
}
