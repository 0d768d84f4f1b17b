import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lessonRunConfig, LESSONS } from '@/lib/lessons';
import { RunConfigSchema, type RunEvent } from '@/lib/protocol';
import type { LaunchOptions, RunHandle } from '@/lib/runtime/types';
import { workerBundle } from '@/lib/sweeps/worker-bundle';
import {
  createRunThreads,
  launchRealClockOnThreads,
  RUN_THREAD_BUNDLE,
  type RunThreads,
} from './run-threads';

// How late a watchdog fires is a benchmark figure (`npm run bench`, BENCH_ONLY=load), never a unit
// test's: these tests check what runs where and that a run on a thread behaves as it does here.

/**
 * The watchdog lesson's "on" side: two silent streams the watchdog cuts (120 s, then 150 s of
 * run time), then a normal run; its time budget widened, as a busy machine's wall time counts.
 */
const lesson = lessonRunConfig(
  LESSONS.find((l) => l.slug === 'stream-idle-watchdog')!,
  'on',
  { clock: 'real', timeScale: 0.002 },
);
const config = RunConfigSchema.parse({ ...lesson, budgets: { ...lesson.budgets, maxRunMs: 86_400_000 } });

let threads: RunThreads;
beforeAll(async () => {
  await workerBundle(RUN_THREAD_BUNDLE); // built here (esbuild), not inside the first run's time
  threads = createRunThreads({ threads: 2 });
}, 120_000);
afterAll(() => threads.close());

/**
 * Runs to its end, blocking this thread for 800 ms as soon as it learns a watchdog was armed,
 * as a busy server's main thread is blocked by synchronous work.
 */
async function runBesideBlockedMainThread(
  launch: (options: LaunchOptions) => RunHandle,
  runId: string,
): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  let blocks = 0;
  const handle = launch({
    runId,
    config,
    onEvent: (event) => {
      events.push(event);
      // The two silent streams' watchdogs (the later calls' watchdogs never fire).
      if (event.event === 'watchdog_armed' && blocks++ < 2) setImmediate(() => block(800));
    },
  });
  await handle.done;
  return events;
}

function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('real-clock runs on run threads', () => {
  it('runs a real-clock run on a thread and hands back every event in order while the main thread is blocked', async () => {
    const events = await runBesideBlockedMainThread((options) => threads.launch(options), 'on-thread');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(events[0]?.event).toBe('run_start');
    expect(events.at(-1), JSON.stringify(events.at(-1))).toMatchObject({
      event: 'terminate',
      reason: 'end_turn',
      complete: true,
    });
    expect(events.filter((e) => e.event === 'watchdog_fired')).toHaveLength(2);
  }, 90_000);

  it('sends real-clock runs to the threads and keeps virtual-clock runs (and tapped ones) on this thread', () => {
    const where: string[] = [];
    const stand =
      (name: string) =>
      (options: LaunchOptions): RunHandle => {
        where.push(`${options.runId}:${name}`);
        return {
          runId: options.runId,
          done: Promise.resolve(),
          control: () => undefined,
          redactText: (text) => text,
        };
      };
    const launch = launchRealClockOnThreads(
      { launch: stand('thread'), close: async () => undefined },
      stand('here'),
    );
    const virtual = RunConfigSchema.parse({ ...config, clock: 'virtual' });
    launch({ runId: 'real', config, onEvent: () => undefined });
    launch({ runId: 'virtual', config: virtual, onEvent: () => undefined });
    launch({ runId: 'tapped', config, onEvent: () => undefined, onVendorRequest: () => undefined });
    expect(where).toEqual(['real:thread', 'virtual:here', 'tapped:here']);
  });

  it('passes control messages to the run: an abort ends it at once', async () => {
    const events: RunEvent[] = [];
    const handle = threads.launch({ runId: 'aborted', config, onEvent: (event) => events.push(event) });
    handle.control({ action: 'abort' });
    await handle.done;
    expect(events.at(-1)).toMatchObject({ event: 'terminate', reason: 'aborted' });
    expect(events.filter((e) => e.event === 'watchdog_fired')).toHaveLength(0);
  }, 30_000);

  it('redacts what the registry logs about a thread run: its own key, and a key a swap brought', async () => {
    const own = 'sk-ant-own-key-0123456789abcdefghij';
    const swapped = 'sk-ant-swapped-key-9876543210zyxwvu';
    const handle = threads.launch({ runId: 'keyed', config, apiKey: own, onEvent: () => undefined });
    expect(handle.redactText(`failed with ${own}`)).toBe('failed with [redacted]');
    handle.control({
      action: 'swap',
      target: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet', apiKey: swapped },
    });
    expect(handle.redactText(`${own} then ${swapped}`)).toBe('[redacted] then [redacted]');
    handle.control({ action: 'abort' });
    await handle.done;
  }, 30_000);
});
