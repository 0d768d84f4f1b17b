import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { lessonRunConfig, LESSONS } from '@/lib/lessons';
import { RunConfigSchema } from '@/lib/protocol';
import { Worker } from 'node:worker_threads';
import type { FromRunThread, ToRunThread } from '@/lib/run-threads/messages';
import { RUN_THREAD_BUNDLE } from '@/lib/run-threads/run-threads';
import { workerBundle } from '@/lib/sweeps/worker-bundle';

/**
 * What the load bench's runs cost a run thread, in CPU time rather than wall time, so a busy
 * machine does not decide the figure: `runs` real-clock runs of the watchdog lesson's "on" side
 * (the load bench's config, lib/bench/load.ts) started at once on ONE run thread, the production
 * path (the bundled lib/run-threads/run-thread-entry.ts), and the CPU that thread used
 * from the first start to the last run's end, read from /proc/self/task/<tid>/stat (Linux). The
 * main thread's CPU (receiving the thread's messages and handing events on) is printed beside it.
 *
 *   node --import tsx lib/bench/run-thread-cpu.ts [runs=50] [rounds=3] [timeScale=0.04]
 *
 * Each round prints one JSON line; compare two trees by running it in each, alternately.
 */
const runs = Number(process.argv[2] ?? 50);
const rounds = Number(process.argv[3] ?? 3);
const timeScale = Number(process.argv[4] ?? 0.04);

/** utime + stime of one task of this process, ms (ticks of 10 ms). */
function taskCpuMs(tid: string): number {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}
const tasks = (): string[] => fs.readdirSync('/proc/self/task');

const lesson = LESSONS.find((l) => l.slug === 'stream-idle-watchdog')!;
const side = lessonRunConfig(lesson, 'on', { clock: 'real', timeScale });
const config = RunConfigSchema.parse({ ...side, budgets: { ...side.budgets, maxRunMs: 86_400_000 } });

const before = new Set(tasks());
// The run thread's own bundle and message protocol (lib/run-threads/messages.ts), spoken
// directly so BENCH_PROFILE_DIR can give the thread a V8 CPU profile of its own.
const profileDir = process.env.BENCH_PROFILE_DIR;
const worker = new Worker(await workerBundle(RUN_THREAD_BUNDLE), {
  execArgv: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
});
let events = 0;
let messages = 0;
const waiting = new Map<string, () => void>();
worker.on('message', (message: FromRunThread) => {
  if (message.type === 'done') {
    waiting.get(message.runId)?.();
    waiting.delete(message.runId);
  } else {
    messages += 1;
    for (const [, [batch]] of message.runs) events += batch.length;
  }
});
const launch = (): Promise<void> => {
  const runId = `bench-${randomUUID()}`;
  const done = new Promise<void>((resolve) => waiting.set(runId, resolve));
  const start: ToRunThread = { type: 'start', runId, config };
  worker.postMessage(start);
  return done;
};

// One run to its end first: the thread's start, bundle and warm-up are not the runs' cost.
await launch();
// The run thread is the task that appeared with it and did the warm-up run: the busiest new one.
const fresh = tasks().filter((tid) => !before.has(tid));
const runThread = fresh.reduce((a, b) => (taskCpuMs(b) > taskCpuMs(a) ? b : a));
const main = String(process.pid);

for (let round = 0; round < rounds; round++) {
  events = 0;
  messages = 0;
  const cpu0 = taskCpuMs(runThread);
  const main0 = taskCpuMs(main);
  const t0 = performance.now();
  const elu0 = worker.performance.eventLoopUtilization();
  await Promise.all(Array.from({ length: runs }, launch));
  const elu = worker.performance.eventLoopUtilization(elu0);
  const threadMs = taskCpuMs(runThread) - cpu0;
  console.log(
    JSON.stringify({
      runs,
      events,
      messagesPerRun: +(messages / runs).toFixed(1),
      threadCpuMsPerRun: +(threadMs / runs).toFixed(2),
      // Wall time the thread's event loop was not idle, a run: its CPU plus the time it waited for a core inside its work.
      threadBusyMsPerRun: +(elu.active / runs).toFixed(2),
      mainCpuMsPerRun: +((taskCpuMs(main) - main0) / runs).toFixed(2),
      wallMs: Math.round(performance.now() - t0),
    }),
  );
}
await worker.terminate();
process.exit(0);
