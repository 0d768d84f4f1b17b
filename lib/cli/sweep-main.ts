import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { formatMs } from '@/lib/protocol/format-duration';
import {
  createSqliteCassetteStore,
  createSqlitePromptSetStore,
  createSqliteRunStore,
  createSqliteSweepStore,
  dataDir,
} from '@/lib/store';
import { sweepRunnerKind } from '@/lib/sweeps/create-sweep-runner';
import { storedSweepCassettes } from '@/lib/sweeps/sweep-cassettes';
import { executeSweep } from '@/lib/sweeps/execute-sweep';
import { formatTable } from '@/lib/sweeps/format-table';
import { evaluateGates, formatGates, junitXml } from '@/lib/sweeps/gates';
import { formatComparisons, pairedComparisons } from '@/lib/sweeps/paired-comparison';
import { createSweepRunner } from '@/lib/sweeps/create-sweep-runner';
import { rowsToCsv, sweepExport } from '@/lib/sweeps/sweep-export';
import { validateSweepGrid } from '@/lib/sweeps/validate-grid';
import { readPromptSets } from '@/lib/sweeps/expand-grid';
import { rerunGrid, RerunError } from '@/lib/sweeps/rerun-failed';
import type { SweepGrid } from '@/lib/protocol';
import { pinStrategy, StrategyError } from '@/lib/runtime/load-strategy';
import { pinTaskDir, TaskFolderError } from '@/lib/tools/tasks/load-task';
import { CliInputError } from './parse-args';
import { parseSweepArgs, SWEEP_USAGE } from './parse-sweep-args';
import { createProgressPrinter } from './progress-bar';

/**
 * The grid of a re-run of what failed in a stored sweep (lib/sweeps/rerun-failed.ts), read from
 * the run store's folder; a sweep not there, one still running, or nothing failed is bad input.
 */
async function rerunGridOf(sweepId: string, fromCassettes: boolean): Promise<SweepGrid> {
  const dir = dataDir();
  const sweeps = createSqliteSweepStore({ dir });
  const cassettes = createSqliteCassetteStore({ dir });
  try {
    const record = await sweeps.getSweep(sweepId);
    if (!record) throw new CliInputError([`--rerun-failed: no sweep "${sweepId}" in ${dir}`]);
    if (record.summary.status === 'running' || record.summary.status === 'queued')
      throw new CliInputError([
        `--rerun-failed: sweep ${sweepId} is still ${record.summary.status}; re-run what failed once it has ended`,
      ]);
    const recorded = fromCassettes ? await storedSweepCassettes(cassettes).recordedRuns() : undefined;
    return rerunGrid({
      id: sweepId,
      name: record.summary.name,
      grid: record.grid,
      metrics: await sweeps.readSweepMetrics(sweepId),
      fromCassettes,
      hasRecording: (runId) => recorded?.has(runId) ?? false,
    });
  } catch (error) {
    if (error instanceof RerunError) throw new CliInputError([`--rerun-failed: ${error.message}`]);
    throw error;
  } finally {
    await sweeps.close();
    await cassettes.close();
  }
}

/**
 * `npm run sweep -- --grid grid.json`: the grid's runs on the worker pool (or the Redis
 * queue), a progress bar, the results table at the end. The same code as POST /api/sweeps.
 */
async function main(argv: string[]): Promise<number> {
  let options;
  try {
    options = await parseSweepArgs(argv, { rerunGridOf });
  } catch (error) {
    if (error instanceof CliInputError) {
      console.error(`sweep: ${error.lines.join('\n       ')}\n\n${SWEEP_USAGE}`);
      return 2;
    }
    throw error;
  }
  if (options === 'help') {
    console.log(SWEEP_USAGE);
    return 0;
  }
  // A configuration's strategy of one's own is pinned here, by the sha256 of its file: each run's config records it.
  try {
    options.grid = {
      ...options.grid,
      configurations: options.grid.configurations.map((c) =>
        c.strategy ? { ...c, strategy: pinStrategy(c.strategy.file) } : c,
      ),
    };
    // Each task folder too, by the sha256 of its files, with its id: each run's config records the pin.
    if (options.grid.tasks)
      options.grid = {
        ...options.grid,
        tasks: options.grid.tasks.map((t) => {
          const pinned = pinTaskDir(t.dir);
          if (t.sha256 && t.sha256 !== pinned.ref.sha256)
            throw new TaskFolderError(
              `tasks: task folder ${t.dir} changed since the grid pinned it (sha256 ${pinned.ref.sha256.slice(0, 12)}…, the grid says ${t.sha256.slice(0, 12)}…)`,
            );
          return { dir: t.dir, sha256: pinned.ref.sha256, id: pinned.id };
        }),
      };
  } catch (error) {
    if (error instanceof StrategyError || error instanceof TaskFolderError) {
      console.error(`sweep: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const dir = dataDir();
  const promptSetStore = createSqlitePromptSetStore({ dir });
  const promptSets = await readPromptSets(options.grid, (ref) =>
    promptSetStore.getPromptSet(ref.name, ref.version),
  );
  // The CLI takes no key on its command line: an endpoint's key comes from the environment.
  const problems = validateSweepGrid(options.grid, { runnerKind: sweepRunnerKind(), promptSets });
  if (problems.length > 0) {
    console.error(`sweep: ${problems.join('\n       ')}`);
    await promptSetStore.close();
    return 2;
  }

  const runStore = createSqliteRunStore({ dir });
  const sweepStore = createSqliteSweepStore({ dir });
  const cassetteStore = createSqliteCassetteStore({ dir });
  const runner = await createSweepRunner({ ...(options.workers ? { workers: options.workers } : {}) });
  const cancel = new AbortController();
  const stop = (): void => cancel.abort();
  process.once('SIGINT', stop);
  const printer = options.quiet ? undefined : createProgressPrinter(process.stderr);
  const sweepId = `sweep-${randomUUID().slice(0, 8)}`;
  try {
    const outcome = await executeSweep({
      sweepId,
      grid: options.grid,
      runner,
      runStore,
      sweepStore,
      signal: cancel.signal,
      onProgress: (p) => printer?.update(p),
      promptSets,
      cassettes: storedSweepCassettes(cassetteStore),
    });
    printer?.end();
    const sweep = (await sweepStore.getSweep(sweepId))!.summary;
    console.log(`\n${formatTable(outcome.rows)}\n`);
    console.log(
      `${sweep.status}: ${sweep.done} of ${sweep.total} runs in ${formatMs(sweep.elapsed_ms)} on ${runner.describe}` +
        `${outcome.message ? `\n  ${outcome.message}` : ''}\n  sweep ${sweepId} (best value per column marked *)`,
    );
    const comparisons = pairedComparisons({ rows: outcome.rows, metrics: outcome.metrics });
    if (comparisons.length > 0)
      console.log(
        `\nPaired on shared seeds (▲ only where the exact test finds a difference at p < 0.05):\n${formatComparisons(comparisons)}`,
      );
    const gates = evaluateGates({ checks: options.checks, rows: outcome.rows, metrics: outcome.metrics });
    if (options.checks.length > 0) console.log(`\n${formatGates(gates)}`);
    if (options.junit) {
      writeFileSync(
        options.junit,
        junitXml({ sweepId, name: sweep.name, status: sweep.status, results: gates }),
      );
      console.log(`  JUnit XML written to ${options.junit}`);
    }
    if (options.out) {
      const text = options.out.toLowerCase().endsWith('.csv')
        ? rowsToCsv(outcome.rows)
        : `${JSON.stringify(sweepExport({ sweep, grid: options.grid, rows: outcome.rows, runs: outcome.metrics }), null, 2)}\n`;
      writeFileSync(options.out, text);
      console.log(`  results written to ${options.out}`);
    }
    if (outcome.status !== 'completed') return 1;
    return gates.every((g) => g.passed) ? 0 : 3;
  } finally {
    process.off('SIGINT', stop);
    await runner.close();
    await runStore.close();
    await sweepStore.close();
    await cassetteStore.close();
    await promptSetStore.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`sweep: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
