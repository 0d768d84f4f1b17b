import { pinStrategy, StrategyError } from '@/lib/runtime/load-strategy';
import { pinTaskDir, TaskFolderError } from '@/lib/tools/tasks/load-task';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CassetteFileError, missingConfig, parseCassette } from '@/lib/cassettes';
import { describeIssues, RunConfigSchema, type Cassette, type RunConfig } from '@/lib/protocol';

export const USAGE = `Usage: npm run loop -- [options]

  --provider P     sim-anthropic (default) | sim-openai | sim-deepseek | sim-openai-responses
                   | anthropic | openai | openai-compatible | openai-responses
  --model M        model id (default: the vendor's default)
  --swap-at T:P[:M]  from turn T continue on provider P (model M, else its default); repeatable
  --naive-takeover send history to the new vendor as it was, credentials included (to see the rejection)
  --foreign-thinking drop|note  foreign thinking on a swap: dropped (default) or kept as a marked note
  --task TEXT      a task of your own instead of the scenario's
  --scenario ID    scenario id (default: fix-failing-test)
  --task-dir DIR   a task folder of your own instead of a scenario (task.md, workspace/, tests/, hidden/,
                   task.json; docs/tasks.md), pinned by the sha256 of its files
  --preset NAME    codesmith (default) | s11 | course | naive | sdk-default
  --config FILE    a JSON run config (the same schema as POST /api/runs); flags override it
  --seed N         seed for every random choice (default 1)
  --strategy FILE  a strategy of your own on the mechanism port (a .ts file; docs/strategies.md), pinned by its sha256
  --time-scale X   wall time per unit of run time on the real and paced clocks (0.05 = 20x faster)
  --clock C        real (default) | virtual (simulated vendors only: instant, same timestamps)
                   | paced (the virtual run, each jump waiting for wall time at --time-scale)
  --out FILE       write the run's events as JSONL
  --otel-out FILE  write the run as OTLP/JSON (GenAI spans) for Jaeger, Phoenix, Langfuse, …
  --record FILE    record the run's model traffic as a cassette (requests without keys, response bytes and timing)
  --cassette FILE  replay a cassette instead of calling the vendor (its vendor and model, and the config it was
                   recorded with unless --config is given; flags override it; faults apply on top)
  --off-recording stop|simulate  when the loop asks for what the cassette does not hold: stop (default) or go on on the simulated model
  --break-on KIND  pause after an event of this kind (retry_scheduled, compaction, watchdog_fired, …); repeatable.
                   At each pause a prompt asks: step, continue or cancel (a terminal only: refused in a pipe)
  --approve-tools all|writes|NAME[,NAME]  tool calls wait for you to approve, deny or edit them (a terminal only)
  --quiet          print only the summary
  --help           this text

Real vendors read ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL or OPENAI_API_KEY / OPENAI_BASE_URL (openai-responses too).
Exit status: 0 the run completed, 1 it ended incomplete, 2 bad input.`;

export interface CliOptions {
  config: RunConfig;
  /** The cassette a replayed run is served from (--cassette). */
  cassette?: Cassette;
  /** Where to write the run's recording (--record). */
  record?: string;
  /** What the replay's config came from, in words: the cassette's recorded config, or why not. */
  cassetteNote?: string;
  out?: string;
  otelOut?: string;
  quiet: boolean;
}

/** A problem with what the user typed: printed with the usage, exit status 2. */
export class CliInputError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
  }
}

/** Turns argv into a validated run config (file first, flags over it). */
export function parseCliArgs(argv: string[]): CliOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        provider: { type: 'string' },
        model: { type: 'string' },
        task: { type: 'string' },
        scenario: { type: 'string' },
        'task-dir': { type: 'string' },
        preset: { type: 'string' },
        config: { type: 'string' },
        seed: { type: 'string' },
        strategy: { type: 'string' },
        'time-scale': { type: 'string' },
        clock: { type: 'string' },
        out: { type: 'string' },
        'otel-out': { type: 'string' },
        record: { type: 'string' },
        cassette: { type: 'string' },
        'off-recording': { type: 'string' },
        quiet: { type: 'boolean', default: false },
        'swap-at': { type: 'string', multiple: true },
        'naive-takeover': { type: 'boolean', default: false },
        'foreign-thinking': { type: 'string' },
        'break-on': { type: 'string', multiple: true },
        'approve-tools': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new CliInputError([error instanceof Error ? error.message : String(error)]);
  }
  const v = parsed.values;
  if (v.help) return 'help';

  const cassette = v.cassette ? readCassetteFile(v.cassette) : undefined;
  // A replay asks the recorded questions only with the recorded task and prompts: the cassette's config is the base.
  const recorded = cassette?.config && !v.config ? recordedBase(cassette.config) : undefined;
  const base = v.config ? readConfigFile(v.config) : (recorded ?? {});
  const input: Record<string, unknown> = { ...base };
  const provider: Record<string, unknown> = {
    vendor: 'sim-anthropic',
    ...(base.provider as object | undefined),
  };
  if (v.provider) provider.vendor = v.provider;
  if (v.model) provider.model = v.model;
  if (cassette) {
    // A replay speaks the recording's dialect to the recording's model.
    provider.vendor = cassette.source.vendor;
    provider.model = cassette.source.model;
    input.replay = {
      cassette: v.cassette,
      ...(v['off-recording'] ? { offRecording: v['off-recording'] } : {}),
    };
  } else if (v['off-recording']) throw new CliInputError(['--off-recording: only with --cassette']);
  input.provider = provider;
  if (v.task) input.task = v.task;
  if (v.scenario) input.scenario = v.scenario;
  if (v['task-dir'] !== undefined) {
    if (v.scenario)
      throw new CliInputError(['--task-dir and --scenario: give one (a task folder is its own scenario)']);
    try {
      const pinned = pinTaskDir(v['task-dir']);
      input.taskDir = pinned.ref;
      input.scenario = pinned.id;
    } catch (error) {
      if (error instanceof TaskFolderError) throw new CliInputError([`--task-dir: ${error.message}`]);
      throw error;
    }
  }
  if (v.preset) input.preset = v.preset;
  if (v.clock) input.clock = v.clock;
  if (v.seed !== undefined) input.seed = toNumber('--seed', v.seed);
  if (v.strategy !== undefined) {
    try {
      input.strategy = pinStrategy(v.strategy);
    } catch (error) {
      if (error instanceof StrategyError) throw new CliInputError([`--strategy: ${error.message}`]);
      throw error;
    }
  }
  if (v['time-scale'] !== undefined) input.timeScale = toNumber('--time-scale', v['time-scale']);
  if (v['swap-at'])
    input.swaps = [...((base.swaps as unknown[] | undefined) ?? []), ...v['swap-at'].map(parseSwapAt)];
  if (v['naive-takeover'] || v['foreign-thinking']) {
    input.takeover = {
      ...(base.takeover as object | undefined),
      ...(v['naive-takeover'] ? { naive: true } : {}),
      ...(v['foreign-thinking'] ? { foreignThinking: v['foreign-thinking'] } : {}),
    };
  }

  if (v['break-on'] || v['approve-tools']) {
    const pause = (base.pause as { breakpoints?: unknown[]; approval?: unknown } | undefined) ?? {};
    input.pause = {
      ...pause,
      breakpoints: [
        ...(pause.breakpoints ?? []),
        ...(v['break-on'] ?? []).map((event) => ({ on: 'event', event })),
      ],
      ...(v['approve-tools'] ? { approval: { tools: approvalTools(v['approve-tools']) } } : {}),
    };
  }

  const result = RunConfigSchema.safeParse(input);
  if (!result.success) throw new CliInputError(describeIssues(result.error).map((line) => `config ${line}`));
  return {
    config: result.data,
    ...(cassette ? { cassette, cassetteNote: cassetteNote(cassette, Boolean(v.config)) } : {}),
    ...(v.record ? { record: v.record } : {}),
    ...(v.out ? { out: v.out } : {}),
    ...(v['otel-out'] ? { otelOut: v['otel-out'] } : {}),
    quiet: v.quiet ?? false,
  };
}

/** --approve-tools: all, writes, or tool names separated by commas. */
function approvalTools(value: string): string | string[] {
  if (value === 'all' || value === 'writes') return value;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw new CliInputError(['--approve-tools: all, writes, or tool names (read_file,write_file)']);
  return names;
}

/** A cassette's recorded config as the base of its replay: everything but the vendor (the recording's) and the replay itself. */
function recordedBase(config: RunConfig): Record<string, unknown> {
  const { provider: _provider, replay: _replay, ...rest } = config;
  return rest;
}

function cassetteNote(cassette: Cassette, ownConfig: boolean): string {
  const missing = missingConfig(cassette);
  if (missing) return `note: ${missing}`;
  const c = cassette.config!;
  if (ownConfig)
    return 'note: --config given: the cassette’s recorded config is not used, and a request it changes leaves the recording';
  return `config from the cassette: scenario ${c.scenario}${c.task ? ', its own task' : ''}, preset ${c.preset}, seed ${c.seed}, ${c.clock} clock (flags override it)`;
}

function readCassetteFile(path: string): Cassette {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliInputError([`--cassette: cannot read ${path}: ${(error as Error).message}`]);
  }
  try {
    return parseCassette(text);
  } catch (error) {
    if (error instanceof CassetteFileError)
      throw new CliInputError(error.lines.map((line) => `--cassette ${path}: ${line}`));
    throw error;
  }
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliInputError([`--config: cannot read ${path}: ${(error as Error).message}`]);
  }
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new Error('expected a JSON object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new CliInputError([`--config: ${path} is not a JSON run config: ${(error as Error).message}`]);
  }
}

/** `3:sim-openai` or `3:sim-anthropic:claude-sim-haiku` → a scheduled swap (the schema checks the parts). */
function parseSwapAt(text: string): Record<string, unknown> {
  const match = /^(\d+):([a-z-]+)(?::(.+))?$/.exec(text.trim());
  if (!match)
    throw new CliInputError([`--swap-at: expected TURN:PROVIDER[:MODEL] (e.g. 3:sim-openai), got "${text}"`]);
  return { atTurn: Number(match[1]), vendor: match[2], model: match[3] ?? '' };
}

function toNumber(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n)) throw new CliInputError([`${flag}: expected a number, got "${text}"`]);
  return n;
}
