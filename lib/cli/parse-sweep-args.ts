import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { describeIssues, SweepGridSchema, type SweepGrid } from '@/lib/protocol';
import { CliInputError } from './parse-args';

export const SWEEP_USAGE = `Usage: npm run sweep -- --grid grid.json [options]

  --grid FILE      the sweep grid (the same schema as POST /api/sweeps)
  --workers N      worker threads (default: one per core)
  --out FILE       write the results: .json (sweep, grid, table, every run) or .csv (the table)
  --quiet          no progress bar, only the table
  --help           this text

Runs go on the virtual clock and into the run store (LOOP_LAB_DATA_DIR), where /sweeps and
/runs/<id> open them. With LOOP_LAB_REDIS_URL set, jobs go through BullMQ to \`npm run worker\`.
Exit status: 0 the sweep completed, 1 it failed or was cancelled, 2 bad input.`;

export interface SweepCliOptions {
  grid: SweepGrid;
  workers?: number;
  out?: string;
  quiet: boolean;
}

/** Reads and validates the grid file and the flags; every problem is a line naming what to fix. */
export function parseSweepArgs(argv: string[]): SweepCliOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        grid: { type: 'string' },
        workers: { type: 'string' },
        out: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new CliInputError([error instanceof Error ? error.message : String(error)]);
  }
  const { values } = parsed;
  if (values.help) return 'help';
  if (!values.grid) throw new CliInputError(['--grid FILE is required']);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(values.grid, 'utf8'));
  } catch (error) {
    throw new CliInputError([
      `--grid ${values.grid}: ${error instanceof Error ? error.message : String(error)}`,
    ]);
  }
  const grid = SweepGridSchema.safeParse(raw);
  if (!grid.success)
    throw new CliInputError(describeIssues(grid.error).map((line) => `--grid ${values.grid}: ${line}`));
  let workers: number | undefined;
  if (values.workers !== undefined) {
    workers = Number(values.workers);
    if (!Number.isInteger(workers) || workers < 1 || workers > 256)
      throw new CliInputError([`--workers: expected a whole number from 1 to 256, got "${values.workers}"`]);
  }
  if (values.out && !/\.(json|csv)$/i.test(values.out))
    throw new CliInputError([`--out ${values.out}: name a .json or .csv file`]);
  return {
    grid: grid.data,
    ...(workers ? { workers } : {}),
    ...(values.out ? { out: values.out } : {}),
    quiet: values.quiet,
  };
}
