import { createClock, createRandom, PacedClock, type Clock, type Random } from '@/lib/clock';
import { runLoop, type Emit, type ProviderBinding } from '@/lib/engine';
import {
  DEFAULT_SYSTEM_PROMPT,
  REAL_MODELS,
  SIM_MODELS,
  VendorSchema,
  isPauseControl,
  type EventBody,
  type FaultPlan,
  type RunConfig,
} from '@/lib/protocol';
import { processEnv, serverEnv } from '@/lib/config/server-env';
import { createMcpHub, type McpHub } from '@/lib/tools/mcp';
import { createControlQueue } from './control-queue';
import { createRunLog, type RunLog } from './run-log';
import { createRunTransport } from './run-transport';
import { createRunWorkbench, runStartEvent, type RunWorkbench } from './run-workbench';
import { simulatedPolicy } from './simulated-policy';
import { startFromParent } from './start-from-parent';
import { createSwapController, type SwapController } from './swap-controller';
import type { ForkStart } from './plan-fork';
import type { ControlMessage, LaunchOptions, RunHandle } from './types';
import { createPauseGate, type PauseGate } from './pause-gate';
import { createToolApproval, type ToolApproval } from './tool-approval';
import type { VendorTarget } from './bind-vendor';
import { watchDeadlock } from './watch-deadlock';
import { replayTarget } from './replay-target';
import { redactPieces } from '@/lib/cassettes';

export { simulatedPolicy } from './simulated-policy';

/**
 * The composition root: the run log (the one owner of the log), the control queue, the
 * transport (a simulated vendor, or the global fetch for real ones, under the fault wrapper)
 * with the provider adapter over the real SDK, the workspace and its tools, then the loop.
 * The simulated path and the real path differ only in which fetch sits under the fault wrapper.
 */
export function launchRun(options: LaunchOptions): RunHandle {
  const { runId, config, fork } = options;
  // A fork's own time goes on from the last event it copies from its parent.
  const clock = createClock({
    kind: config.clock,
    timeScale: config.timeScale,
    startAt: fork?.trajectory.events.at(-1)?.ts ?? 0,
  });
  if (options.restart && clock instanceof PacedClock) clock.setPaced(false);
  const random = createRandom(config.seed);
  // The final answer the task's answer scorers check: the text of the last turn's reply, as logged (redacted).
  let answer: string | undefined;
  // Breakpoints and the pause they hold (pause-gate.ts): the run sees its clock through the gate.
  const watch: { gate?: PauseGate } = {};
  const log = createRunLog({
    runId,
    clock,
    apiKey: options.apiKey,
    startTurn: fork?.atTurn,
    env: processEnv(),
    restart: options.restart,
    onEvent: (event, totals) => {
      // A resumed paced run re-executes its stored log at once, and is paced again after it.
      if (event.event === 'resumed_after_restart' && clock instanceof PacedClock) clock.setPaced(true);
      if (event.event === 'llm_call' && !event.background && event.message)
        answer = event.message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      options.onEvent(event, totals);
      watch.gate?.observe(event, totals);
    },
  });
  let swaps: SwapController | undefined; // built once the scenario is known; requests go out only after
  const controls = createControlQueue({
    faults: config.faults,
    emit: log.emit,
    iteration: () => log.iteration,
    closed: () => log.closed,
    learnSecret: log.learnSecret,
    requestSwap: (target) => swaps?.request(target, 'control'),
    applySwaps: (n) => swaps?.apply(n),
  });
  const gate = createPauseGate({
    config: config.pause,
    clock,
    emit: log.emit,
    iteration: () => log.iteration,
    closed: () => log.closed,
    signal: controls.signal,
    abort: () => controls.push({ action: 'abort', reason: 'aborted' }),
  });
  watch.gate = gate;
  const runClock = gate.clock;
  let approval: ToolApproval | undefined;

  const run = async (): Promise<void> => {
    // A strategy is code: only the CLI and the sweep runner load one (the web API refuses the config).
    if (config.strategy && options.strategy?.id === undefined)
      throw new Error(
        `the config names strategy ${config.strategy.file}, but it was not loaded: a strategy runs only from the CLI or a sweep`,
      );
    // MCP servers connect before the tools are known; their decisions join the log after run_start.
    const early: EventBody[] = [];
    let opened = false;
    mcp = config.mcp
      ? createMcpHub({
          config: config.mcp,
          clock: runClock,
          emit: (body) => (opened ? log.emit(body) : early.push(body)),
          iteration: () => log.iteration,
          root: serverEnv().root ?? process.cwd(),
          allowed: serverEnv().mcpServers,
          signal: controls.signal,
        })
      : undefined;
    // Only a run with servers waits here: one without starts in the same tick, so its first events come with the answer to its POST.
    if (mcp) await mcp.start();
    const bench = createRunWorkbench({
      config,
      clock: runClock,
      random,
      emit: log.emit,
      faults: () => controls.faults,
      share: runId,
      answer: () => answer,
      ...(mcp ? { extraTools: mcp.tools } : {}),
    });
    const { recovery, tools, task } = bench;
    swaps = bindVendors({
      options,
      clock: runClock,
      random,
      log,
      bench,
      faults: () => controls.faults,
      gate,
    });
    approval = createToolApproval({
      config: config.pause?.approval,
      executor: bench.executor,
      gate,
      clock: runClock,
      emit: log.emit,
      mutates: (tool) => bench.toolbox.get(tool)?.mutates === true,
      closed: () => log.closed,
    });
    // The swap controller's adapter: it keeps the last body sent, for the next swap's event.
    const { provider, model, fallbackModel, vendor } = swaps.current;
    // A fork opens at 0 like any run; its clock already stands where the copied turns end.
    const opening = runStartEvent({ config, bench, vendor, model, clock: runClock });
    if (!fork) log.emit(opening);
    else {
      log.emitAt(opening, 0);
      await startFromParent({
        fork,
        emitAt: log.emitAt,
        toolbox: bench.toolbox,
        workspace: bench.workspace,
        clock: runClock,
        random: random.fork('fork'),
      });
    }
    opened = true;
    for (const body of early.splice(0)) log.emit(body);
    await runLoop({
      config,
      recovery,
      provider,
      model,
      fallbackModel,
      system: config.system ?? DEFAULT_SYSTEM_PROMPT,
      task,
      tools,
      executor: approval.executor,
      nestedTools: bench.nestedExecutor,
      clock: runClock,
      random: random.fork('engine'),
      emit: log.emit,
      signal: controls.signal,
      probe: options.probe,
      judgeTask: bench.judge,
      takeCompactRequest: controls.takeCompactRequest,
      beforeRequest: controls.beforeRequest,
      beforeTerminate: controls.ending,
      rebind: (target) => crossVendorFallback(target, swaps!, log.emit),
      ...(options.strategy && config.strategy ? { mechanisms: [options.strategy] } : {}),
      ...(fork
        ? {
            resume: {
              messages: fork.trajectory.messages,
              afterTurn: fork.atTurn,
              totals: fork.trajectory.totals,
            },
          }
        : {}),
    });
  };

  let mcp: McpHub | undefined;
  // The run's MCP servers end with it, whatever ended it: no process outlives its run.
  const runThenClose = (): Promise<void> =>
    run().finally(async () => {
      await mcp?.close();
    });
  const deadlock = watchDeadlock({ clock, log, abort: controls.abort });
  const finished = runThenClose().then(
    () => log.close('internal_error', 'the engine stopped without a terminate event'),
    (error: unknown) => log.close('internal_error', error instanceof Error ? error.message : String(error)),
  );
  const done = Promise.race([finished, deadlock.forced]).then(deadlock.stop);
  const control = (message: ControlMessage): void => {
    if (!isPauseControl(message)) return controls.push(message);
    if (message.action === 'approve' || message.action === 'deny' || message.action === 'edit') {
      if (approval) approval.decide(message);
      return;
    }
    gate.control(message);
  };
  return { runId, done, control, redactText: log.redactText };
}

/**
 * The transport for every vendor the run may use (the simulated one or the network, under the
 * fault wrapper) and the swap controller over it, bound to the config's first vendor.
 */
function bindVendors(parts: {
  options: LaunchOptions;
  clock: Clock;
  random: Random;
  log: RunLog;
  bench: RunWorkbench;
  faults: () => FaultPlan;
  gate: PauseGate;
}): SwapController {
  const { options, clock, random, log, bench, gate } = parts;
  const { config, fork } = options;
  const bind = createRunTransport({
    config,
    clock,
    random,
    log,
    // An answer fault is a fault like the transport's: an event with what it did, or a warning
    // when the vendor's guarantee rules it out.
    policy: simulatedPolicy(config, bench.scenario, ({ fault, applied, label }) =>
      applied
        ? log.emit({
            event: 'fault_injected',
            iteration: log.iteration,
            rule_id: fault.id,
            action: `answer_${fault.kind}`,
            label,
          })
        : log.emit({ event: 'log', iteration: log.iteration, level: 'warn', message: label }),
    ),
    sdkMaxRetries: bench.recovery.sdkMaxRetries,
    promptCache: bench.recovery.cache.promptCaching,
    faults: parts.faults,
    ...(fork ? { faultsFrom: fork.faults.position } : {}),
    // Requests go out only once the swap controller below is built.
    inForce: () => swaps.current,
    // The pause gate sits above the request count: a breakpoint on request N stops it before it goes out.
    taps: {
      ...options,
      tapFetch: (fetch) => gate.wrapFetch(options.tapFetch ? options.tapFetch(fetch, clock) : fetch),
    },
    ...(options.cassette ? { cassette: options.cassette } : {}),
    // A recording keeps bytes: every key in every form, then any piece of one a stream split across
    // records — but not the model names the run sends, which a key may happen to share a piece with.
    redact: (text) => redactPieces(log.redactText(text), log.knownSecrets(), modelNames(config)),
  });
  const swaps = createSwapController({
    config,
    initial: bind(firstTarget(options)),
    bind,
    handling: config.takeover,
    emit: log.emit,
    inBackground: () => log.inBackground,
    ...(fork ? { inherited: inheritedFrom(fork) } : {}),
  });
  return swaps;
}

/** The public model names a run may send: every model Loop Lab knows, and the ones its config names. */
function modelNames(config: RunConfig): string[] {
  const named = [config.provider.model, config.recovery.fallback?.model, ...config.swaps.map((s) => s.model)];
  return [...SIM_MODELS, ...REAL_MODELS]
    .map((m) => m.id)
    .concat(named.filter((m): m is string => Boolean(m)));
}

/** The vendor and model the config starts on, with the request's key if one came. */
function firstTarget({ config, apiKey }: LaunchOptions): VendorTarget {
  if (config.replay) return replayTarget(config);
  const { vendor, model, baseUrl } = config.provider;
  return { vendor, model, ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) };
}

/** A fork's parent binding at the copied turn: when the fork goes on elsewhere, its first request is a swap. */
function inheritedFrom(fork: ForkStart): { vendor: string; model: string; reason: string } {
  return {
    vendor: fork.trajectory.vendor,
    model: fork.trajectory.model,
    reason: `forked from run ${fork.parentRunId} at turn ${fork.atTurn}`,
  };
}

/** Cross-vendor fallback: a swap made at once, between two attempts of one call; a vendor that does not exist is a warning. */
function crossVendorFallback(
  { vendor, model, reason, iteration }: { vendor: string; model: string; reason: string; iteration: number },
  swaps: SwapController,
  emit: Emit,
): ProviderBinding | undefined {
  const target = VendorSchema.safeParse(vendor);
  if (target.success) return swaps.swapNow({ vendor: target.data, model }, 'fallback', reason, iteration);
  emit({
    event: 'log',
    iteration,
    level: 'warn',
    message: `cross-vendor fallback to "${vendor}" not made: no such vendor`,
  });
  return undefined;
}
