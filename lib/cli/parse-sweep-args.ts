import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { describeIssues, GATE_METRIC_NAMES, SweepGridSchema, type SweepGrid } from '@/lib/protocol';
import { gateChecks, type GateCheck } from '@/lib/sweeps/gates';
import { CliInputError } from './parse-args';

export const SWEEP_USAGE = `Usage: npm run sweep -- --grid grid.json [options]
       npm run sweep -- --rerun-failed SWEEP_ID [--from-cassettes] [options]

  --grid FILE      the sweep grid (the same schema as POST /api/sweeps)
  --rerun-failed ID  a new sweep of only what failed in sweep ID (its runs that ended on an
                   error, an outage or a timeout, and its jobs that never ran), on its grid
  --from-cassettes with --rerun-failed: serve each job the recording its run kept (real endpoints)
  --workers N      worker threads (default: one per core)
  --out FILE       write the results: .json (sweep, grid, table, every run) or .csv (the table)
  --assert EXPR    a gate every row must meet, METRIC OP NUMBER, e.g. "done_rate >= 0.9" or
                   "p95_cost <= 0.05" (repeatable; the grid's "assert" list adds per-row ones)
  --junit FILE     write the assertions' results as JUnit XML (a test case per row × assertion)
  --quiet          no progress bar, only the table
  --help           this text

Runs go on the virtual clock and into the run store (LOOP_LAB_DATA_DIR), where /sweeps and
/runs/<id> open them. With LOOP_LAB_REDIS_URL set, jobs go through BullMQ to \`npm run worker\`.
Metrics: ${GATE_METRIC_NAMES.join(', ')}.
Exit status: 0 the sweep completed and every assertion held, 1 it failed or was cancelled,
2 bad input, 3 it completed but an assertion failed.`;

export interface SweepCliOptions {
  grid: SweepGrid;
  workers?: number;
  out?: string;
  quiet: boolean;
  /** The gates: the command line's --assert, then the grid's assert list. */
  checks: GateCheck[];
  junit?: string;
}

/**
 * Reads and validates the grid file (or, for --rerun-failed, the grid `rerunGridOf` makes of the
 * stored sweep) and the flags; every problem is a line naming what to fix.
 */
export async function parseSweepArgs(
  argv: string[],
  options: { rerunGridOf?: (sweepId: string, fromCassettes: boolean) => Promise<SweepGrid> } = {},
): Promise<SweepCliOptions | 'help'> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        grid: { type: 'string' },
        'rerun-failed': { type: 'string' },
        'from-cassettes': { type: 'boolean', default: false },
        workers: { type: 'string' },
        out: { type: 'string' },
        assert: { type: 'string', multiple: true },
        junit: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new CliInputError([error instanceof Error ? error.message : String(error)]);
  }
  const { values } = parsed;
  if (values.help) return 'help';
  const rerun = values['rerun-failed'];
  if (rerun !== undefined && values.grid)
    throw new CliInputError(['--rerun-failed and --grid: give one (a re-run takes its grid from the sweep)']);
  if (rerun === undefined && values['from-cassettes'])
    throw new CliInputError(['--from-cassettes: only with --rerun-failed SWEEP_ID']);
  const grid =
    rerun !== undefined
      ? { data: await rerunGridFor(rerun, values['from-cassettes'], options.rerunGridOf) }
      : readGrid(values.grid);
  let workers: number | undefined;
  if (values.workers !== undefined) {
    workers = Number(values.workers);
    if (!Number.isInteger(workers) || workers < 1 || workers > 256)
      throw new CliInputError([`--workers: expected a whole number from 1 to 256, got "${values.workers}"`]);
  }
  if (values.out && !/\.(json|csv)$/i.test(values.out))
    throw new CliInputError([`--out ${values.out}: name a .json or .csv file`]);
  const gates = gateChecks({ cli: values.assert ?? [], grid: grid.data });
  if (gates.problems.length > 0) throw new CliInputError(gates.problems);
  if (values.junit !== undefined && gates.checks.length === 0)
    throw new CliInputError([
      `--junit ${values.junit}: no assertion to report; add --assert "done_rate >= 0.9" or an "assert" list to the grid`,
    ]);
  return {
    grid: grid.data,
    ...(workers ? { workers } : {}),
    ...(values.out ? { out: values.out } : {}),
    quiet: values.quiet,
    checks: gates.checks,
    ...(values.junit !== undefined ? { junit: values.junit } : {}),
  };
}

async function rerunGridFor(
  sweepId: string,
  fromCassettes: boolean,
  make: ((sweepId: string, fromCassettes: boolean) => Promise<SweepGrid>) | undefined,
): Promise<SweepGrid> {
  if (!make) throw new CliInputError(['--rerun-failed: the sweep store is not open here']);
  return make(sweepId, fromCassettes);
}

function readGrid(file: string | undefined): { data: SweepGrid } {
  if (!file) throw new CliInputError(['--grid FILE (or --rerun-failed SWEEP_ID) is required']);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CliInputError([`--grid ${file}: ${error instanceof Error ? error.message : String(error)}`]);
  }
  // A grid of task folders alone runs no built-in scenario beside them.
  if (raw && typeof raw === 'object' && 'tasks' in raw && !('scenarios' in raw))
    raw = { ...raw, scenarios: [] };
  const grid = SweepGridSchema.safeParse(raw);
  if (!grid.success)
    throw new CliInputError(describeIssues(grid.error).map((line) => `--grid ${file}: ${line}`));
  return { data: grid.data };
}
