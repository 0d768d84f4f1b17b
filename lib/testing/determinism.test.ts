import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LESSONS, type Lesson } from '@/lib/lessons';
import { buildCells, type RunnableCell } from '@/lib/matrix/cells';
import { MATRIX_RULE_ID } from '@/lib/matrix/check-cell';
import { matrixConfig } from '@/lib/matrix/matrix-config';
import { quietParseNoise } from '@/lib/matrix/quiet-parse-noise';
import { prepareMatrix } from '@/lib/matrix/run-matrix';
import { RunConfigSchema, SweepGridSchema, type RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { lessonParentConfig, lessonSideRun, type LessonParent } from '@/lib/runtime/lesson-sides';
import { createSqliteRunStore, createSqliteSweepStore, type RunStore, type SweepStore } from '@/lib/store';
import { executeSweep } from '@/lib/sweeps/execute-sweep';
import { SMALL_GRID } from '@/lib/sweeps/execute-sweep-grid.testkit';
import { createLocalPool } from '@/lib/sweeps/local-pool';
import { startBusyLoops } from './busy-loops';
import { firstLogDifference } from './deterministic-log';

/**
 * The promise every comparison, lesson, sweep and fork rests on: the same config and seed give
 * the same log, however busy the machine is. Each case below runs twice — once on a quiet
 * machine, once beside three busy loops per core (a classroom, a sweep, a CI build) — and the
 * two logs must match in everything a run records (all but the run id).
 *
 * It runs on its own (`npm run test:determinism`, a step of `npm test` after the unit tests),
 * so its busy loops slow nothing else and nothing else changes the load it makes.
 */

interface Case {
  name: string;
  run: (runId: string) => Promise<RunEvent[]>;
}

async function launch(
  runId: string,
  options: Omit<Parameters<typeof launchRun>[0], 'runId' | 'onEvent'>,
): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  await launchRun({ runId, ...options, onEvent: (event) => events.push(event) }).done;
  return events;
}

/** Both sides of every lesson, on the virtual clock (a forked lesson's from its parent, made first on each pass). */
function lessonCases(lesson: Lesson): Case[] {
  const parentOf = async (): Promise<LessonParent | undefined> => {
    if (!lesson.fork) return undefined;
    const config = lessonParentConfig(lesson);
    return {
      runId: `${lesson.slug}-parent`,
      config,
      events: await launch(`${lesson.slug}-parent`, { config }),
    };
  };
  return (['on', 'off'] as const).map((side) => ({
    name: `lesson ${lesson.slug}, ${side} side`,
    run: async (runId) => {
      const parent = await parentOf();
      const { config, fork } = lessonSideRun({
        lesson,
        side,
        clock: { clock: 'virtual' },
        ...(parent ? { parent } : {}),
      });
      return launch(runId, { config, ...(fork ? { fork } : {}) });
    },
  }));
}

/** Every seventh runnable fault-matrix cell: each fault kind's rule on its request, through the real runtime. */
function matrixCases(cells: RunnableCell[]): Case[] {
  return cells
    .filter((_, index) => index % 7 === 0)
    .map((cell) => ({
      name: `matrix ${cell.fault.id} at ${cell.point} on ${cell.vendor} × ${cell.preset}`,
      run: (runId) =>
        launch(runId, {
          config: RunConfigSchema.parse({
            clock: 'virtual',
            ...matrixConfig({
              vendor: cell.vendor,
              preset: cell.preset,
              rule: {
                id: MATRIX_RULE_ID,
                enabled: true,
                when: { kind: 'requests', numbers: [cell.requestNo] },
                action: cell.action,
              },
            }),
          }),
        }),
    }));
}

/** Runs every case, `concurrency` at a time (on a busy machine, more runs at once make more load). */
async function runAll(cases: Case[], pass: string, concurrency: number): Promise<Map<string, RunEvent[]>> {
  const logs = new Map<string, RunEvent[]>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const item = cases[next++]!;
      logs.set(item.name, await item.run(`${pass}-${next}`));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return logs;
}

const { baselines } = await prepareMatrix({ guardMs: 300_000 });
const cases: Case[] = [
  ...LESSONS.flatMap(lessonCases),
  ...matrixCases(buildCells({ baselines }).filter((c): c is RunnableCell => c.status === 'runnable')),
];

let dir: string;
let runStore: RunStore;
let sweepStore: SweepStore;
const passes: Record<
  'alone' | 'busy',
  { runs: Map<string, RunEvent[]>; sweep: Map<string, RunEvent[]>; rows: unknown }
> = {
  alone: { runs: new Map(), sweep: new Map(), rows: undefined },
  busy: { runs: new Map(), sweep: new Map(), rows: undefined },
};
let loopCount = 0;

/** The 20-run sweep (2 configurations × 2 fault plans × 5 seeds) on the worker-thread pool; its stored logs by job. */
async function sweep(pass: 'alone' | 'busy'): Promise<void> {
  const runner = createLocalPool({ workers: 2 });
  try {
    const outcome = await executeSweep({
      sweepId: `determinism-${pass}`,
      grid: SweepGridSchema.parse(SMALL_GRID),
      runner,
      runStore,
      sweepStore,
    });
    passes[pass].rows = outcome.rows;
    const runs = await runStore.listRuns({ sweepId: `determinism-${pass}`, limit: 100 });
    for (const run of runs)
      passes[pass].sweep.set(
        run.id.replace(`determinism-${pass}`, ''),
        await runStore.readEvents({ runId: run.id }),
      );
  } finally {
    await runner.close();
  }
}

let restoreConsole: (() => number) | undefined;

beforeAll(async () => {
  // The malformed-record cells make the SDKs print each record they cannot parse: expected here.
  restoreConsole = quietParseNoise();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-determinism-'));
  runStore = createSqliteRunStore({ dir });
  sweepStore = createSqliteSweepStore({ dir });
  passes.alone.runs = await runAll(cases, 'alone', 2);
  await sweep('alone');
  const loops = startBusyLoops({ perCore: 3 });
  loopCount = loops.count;
  try {
    passes.busy.runs = await runAll(cases, 'busy', 4);
    await sweep('busy');
  } finally {
    await loops.stop();
  }
}, 1_500_000);

afterAll(async () => {
  restoreConsole?.();
  await runStore?.close();
  await sweepStore?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('same config and seed, same log, at any load', () => {
  it('ran the busy pass beside three busy loops per core', () => {
    expect(loopCount).toBe(3 * os.availableParallelism());
    expect(passes.busy.runs.size).toBe(cases.length);
  });

  it.each(cases.map((c) => [c.name] as const))('%s: the same log alone and beside busy loops', (name) => {
    const alone = passes.alone.runs.get(name)!;
    const busy = passes.busy.runs.get(name)!;
    expect(alone.at(-1)?.event).toBe('terminate');
    expect(firstLogDifference(alone, busy)).toBeUndefined();
  });

  it('a 20-run sweep: every stored log and the results table the same alone and beside busy loops', () => {
    expect(passes.alone.sweep.size).toBe(20);
    expect([...passes.busy.sweep.keys()].sort()).toEqual([...passes.alone.sweep.keys()].sort());
    for (const [job, alone] of passes.alone.sweep) {
      expect(firstLogDifference(alone, passes.busy.sweep.get(job)!), `sweep run ${job}`).toBeUndefined();
    }
    expect(passes.busy.rows).toEqual(passes.alone.rows);
  });
});
