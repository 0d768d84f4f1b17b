import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SweepGridSchema } from '@/lib/protocol';
import { createSqliteRunStore, createSqliteSweepStore, type RunStore, type SweepStore } from '@/lib/store';
import type { SweepProgress } from '@/lib/sweeps/execute-sweep';
import { createLocalPool, type SweepJobRunner } from '@/lib/sweeps/local-pool';
import { sweepWorkerBundle } from '@/lib/sweeps/worker-bundle';
import { createSweepRegistry, type SweepRegistry } from './sweep-registry';

let dir: string;
let runStore: RunStore;
let sweepStore: SweepStore;
let runnersMade: number;

const grid = (seeds: number) =>
  SweepGridSchema.parse({
    configurations: [{ id: 'codesmith', preset: 'codesmith' }],
    seeds: { from: 1, to: seeds },
  });

function registry(): SweepRegistry {
  return createSweepRegistry({
    runStore,
    sweepStore,
    runnerKind: 'local',
    createRunner: async (): Promise<SweepJobRunner> => {
      runnersMade += 1;
      return createLocalPool({ workers: 2 });
    },
  });
}

/** This process's OS threads (worker threads included), from the kernel. */
function osThreads(): number {
  return Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]);
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return check();
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-sweep-registry-'));
  runStore = createSqliteRunStore({ dir });
  sweepStore = createSqliteSweepStore({ dir });
  runnersMade = 0;
});
afterEach(async () => {
  await runStore.close();
  await sweepStore.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the sweep registry', () => {
  it('cancelling a running and a queued sweep leaves no worker threads', async () => {
    // First in this file, the bundle built beforehand: the baseline is this process with no pool.
    await sweepWorkerBundle();
    const baseline = osThreads();
    const sweeps = registry();
    const first = await sweeps.start(grid(400));
    const second = await sweeps.start(grid(400));
    // Wait until the pool is up and runs are being stored.
    expect(await until(async () => ((await sweeps.read(first.id))?.sweep.done ?? 0) >= 2, 120_000)).toBe(
      true,
    );
    expect(osThreads()).toBeGreaterThanOrEqual(baseline + 2);
    await sweeps.cancel(second.id);
    await sweeps.cancel(first.id);
    await Promise.all([sweeps.whenFinished(first.id), sweeps.whenFinished(second.id)]);
    expect((await sweepStore.getSweep(first.id))?.summary.status).toBe('cancelled');
    expect((await sweepStore.getSweep(second.id))?.summary).toMatchObject({ status: 'cancelled', done: 0 });
    expect(runnersMade).toBe(1);
    // The pool is destroyed once no sweep is left: its threads exit.
    expect(await until(async () => osThreads() <= baseline, 10_000)).toBe(true);
  }, 180_000);

  it('runs two sweeps started at once on one pool: the second waits, says for which sweep, then runs', async () => {
    const sweeps = registry();
    const first = await sweeps.start(grid(2));
    const second = await sweeps.start(grid(2));
    const frames: SweepProgress[] = [];
    await sweeps.subscribe(second.id, { onProgress: (p) => frames.push(p), onEnd: () => {} });
    expect((await sweeps.read(second.id))?.sweep).toMatchObject({
      status: 'queued',
      done: 0,
      queue: { position: 1, waiting_for: first.id },
    });
    expect((await sweepStore.getSweep(second.id))?.summary.status).toBe('queued');
    expect((await sweeps.list()).find((s) => s.id === second.id)).toMatchObject({
      status: 'queued',
      queue: { waiting_for: first.id },
    });

    await Promise.all([sweeps.whenFinished(first.id), sweeps.whenFinished(second.id)]);
    expect((await sweepStore.getSweep(first.id))?.summary).toMatchObject({ status: 'completed', done: 2 });
    expect((await sweepStore.getSweep(second.id))?.summary).toMatchObject({ status: 'completed', done: 2 });
    expect(runnersMade).toBe(1);
    const statuses = frames.map((f) => f.summary.status);
    expect(statuses[0]).toBe('queued');
    expect(statuses.indexOf('running')).toBeGreaterThan(0);
    expect(statuses.at(-1)).toBe('completed');
  }, 180_000);
});
