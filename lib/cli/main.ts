import { randomUUID } from 'node:crypto';
import { createWriteStream, writeFileSync } from 'node:fs';
import { runToOtlp } from '@/lib/otel/run-to-otlp';
import { vendorDefaults, type Cassette, type RunConfig, type RunEvent } from '@/lib/protocol';
import { formatMs } from '@/lib/protocol/format-duration';
import { verdictTestsLabels } from '@/lib/protocol/verdict-words';
import { buildCassette, createExchangeKeeper } from '@/lib/cassettes';
import { launchRun } from '@/lib/runtime/launch-run';
import { loadStrategy, StrategyError } from '@/lib/runtime/load-strategy';
import { loadTaskDir, TaskFolderError } from '@/lib/tools/tasks/load-task';
import { warmUp } from '@/lib/runtime/warm-up';
import { createRedactor, runSecrets } from '@/lib/runtime/redact-secrets';
import { validateRunConfig } from '@/lib/runtime/validate-config';
import { CliInputError, parseCliArgs, USAGE } from './parse-args';
import { describeEvent } from './print-event';
import { createPausePrompt } from './pause-prompt';
import { processEnv } from '@/lib/config/server-env';

/**
 * `npm run loop -- …`: the same engine as the playground, in a terminal. Prints the run as
 * it goes and a summary; exit 0 when the run completed, 1 when it ended incomplete, 2 on bad
 * input.
 */
async function main(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseCliArgs(argv);
  } catch (error) {
    if (error instanceof CliInputError) {
      console.error(`loop: ${error.lines.join('\n      ')}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  const problems = validateRunConfig({ config: options.config });
  if (problems.length > 0) {
    console.error(`loop: ${problems.join('\n      ')}`);
    return 2;
  }

  // A strategy of one's own (--strategy, or a config that names one): loaded here, checked against its pinned hash.
  let strategy;
  try {
    strategy = options.config.strategy ? await loadStrategy(options.config.strategy) : undefined;
  } catch (error) {
    if (error instanceof StrategyError) {
      console.error(`loop: ${error.message}`);
      return 2;
    }
    throw error;
  }
  // A task folder named by a config file: checked against its pin here, so a changed folder is bad input.
  if (options.config.taskDir) {
    try {
      loadTaskDir(options.config.taskDir);
    } catch (error) {
      if (error instanceof TaskFolderError) {
        console.error(`loop: ${error.message}`);
        return 2;
      }
      throw error;
    }
  }
  // A pause waits for an answer: in a pipe nobody can give one, so the run is refused rather than left waiting.
  const handsOn = (options.config.pause?.breakpoints.length ?? 0) > 0 || options.config.pause?.approval;
  if (handsOn && !process.stdin.isTTY) {
    console.error(
      'loop: breakpoints and tool approval (--break-on, --approve-tools, or "pause" in the config) ask at a prompt, ' +
        'and stdin is not a terminal: nobody could answer. Run it in a terminal, or leave them out.',
    );
    return 2;
  }
  if (options.cassetteNote && !options.quiet) console.log(options.cassetteNote);
  // A real-clock run's clock starts after the process's one-time costs (tokenizer, SDK first calls).
  if (options.config.clock === 'real') await warmUp();
  const out = options.out ? createWriteStream(options.out) : undefined;
  let last: RunEvent | undefined;
  const all: RunEvent[] = [];
  const startedAtMs = Date.now();
  const runId = randomUUID();
  let turns = 0;
  let verdict = '';
  const kept = options.record ? createExchangeKeeper() : undefined;
  const prompt = handsOn ? createPausePrompt((control) => handle.control(control)) : undefined;
  const handle = launchRun({
    runId,
    config: options.config,
    ...(strategy ? { strategy } : {}),
    ...(options.cassette ? { cassette: options.cassette } : {}),
    ...(kept ? { onExchange: kept.keep } : {}),
    onEvent: (event) => {
      last = event;
      if (options.otelOut) all.push(event);
      if (event.event === 'llm_call') turns += 1;
      if (event.event === 'task_verdict') {
        const edited = event.tests_edited?.length
          ? `; test edited by the model: ${event.tests_edited.join(', ')}`
          : '';
        const tests = verdictTestsLabels(event)
          .map((label) => `; ${label}`)
          .join('');
        verdict = `\n  task verdict: ${event.verdict.replace('_', ' ')} (${event.check}${edited}${tests})`;
      }
      out?.write(`${JSON.stringify(event)}\n`);
      if (!options.quiet) {
        const line = describeEvent(event);
        if (line) console.log(line);
      }
      if (event.event === 'paused') prompt?.onPaused(event);
    },
  });
  const stop = (): void => handle.control({ action: 'abort' });
  process.once('SIGINT', stop);
  await handle.done;
  prompt?.close();
  process.off('SIGINT', stop);
  if (out) await new Promise<void>((resolve) => out.end(resolve));
  if (options.otelOut) writeFileSync(options.otelOut, runToOtlp({ runId, events: all, startedAtMs }));
  if (options.record && kept)
    writeFileSync(options.record, `${JSON.stringify(cassetteOf(options.config, kept), null, 1)}\n`);

  if (last?.event !== 'terminate') {
    console.error('loop: the run ended without a terminate event (a bug: please report it)');
    return 1;
  }
  console.log(
    `\n${last.complete ? 'completed' : 'incomplete'}: ${last.reason}${last.message ? ` (${last.message})` : ''}\n` +
      `  ${turns} model call${turns === 1 ? '' : 's'} · ${last.input_tokens} input + ${last.output_tokens} output tokens · $${last.usd_so_far.toFixed(4)} · ${formatMs(last.ts)} run time` +
      verdict +
      (options.out ? `\n  trace written to ${options.out}` : '') +
      (options.otelOut ? `\n  OTLP/JSON written to ${options.otelOut}` : '') +
      (options.record
        ? `\n  cassette written to ${options.record} (${kept?.exchanges.length ?? 0} exchanges${kept?.truncated ? ', cut at its size bound' : ''})`
        : '') +
      (options.config.replay
        ? `\n  replayed from ${options.config.replay.cassette} (off the recording: ${options.config.replay.offRecording})`
        : ''),
  );
  return last.complete ? 0 : 1;
}

/** The CLI run's recording as a cassette, labelled with what was run. */
function cassetteOf(config: RunConfig, kept: ReturnType<typeof createExchangeKeeper>): Cassette {
  const faults = config.faults.rules.filter((r) => r.enabled).length;
  return buildCassette({
    exchanges: kept.exchanges,
    vendor: config.provider.vendor,
    model: config.provider.model || vendorDefaults(config.provider.vendor).model,
    note: `scenario ${config.scenario}, preset ${config.preset}, seed ${config.seed}${faults > 0 ? `, ${faults} fault rule${faults === 1 ? '' : 's'} on top (not in the recording)` : ''}${config.replay ? `, itself a replay of ${config.replay.cassette}` : ''}`,
    clock: config.clock,
    // The config as run, every key the environment holds removed (none should be in it).
    config: createRedactor({ secrets: runSecrets({ env: processEnv() }) }).value(config),
    truncated: kept.truncated,
    recordedAt: new Date(),
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const redactor = createRedactor({ secrets: runSecrets({ env: processEnv() }) });
    console.error(`loop: ${redactor.text(error instanceof Error ? error.message : String(error))}`);
    process.exit(1);
  },
);
