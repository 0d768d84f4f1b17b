import { createClock, createRandom, VirtualClock, type Clock, type Random } from '@/lib/clock';
import { EventLog, runLoop, RunAborted, RunBudgetExceeded, type Emit } from '@/lib/engine';
import { withFaults } from '@/lib/faults';
import {
  addToTotals,
  DEFAULT_SYSTEM_PROMPT,
  isSimulated,
  NO_TOTALS,
  resolveRecovery,
  terminateEvent,
  toStorableEvent,
  VendorSchema,
  type EventBody,
  type FaultPlan,
  type RunConfig,
  type RunTotals,
} from '@/lib/protocol';
import { createFreeTaskPolicy, createPolicy, type Policy } from '@/lib/sim';
import { createToolbox, createToolExecutor, createWorkspace, getScenario, type Scenario, type Toolbox, type Workspace } from '@/lib/tools';
import { createSdkRetryHold } from './sdk-retry-hold';
import type { ForkStart } from './plan-fork';
import { replayWorkspace } from './replay-workspace';
import { bindVendor, type BoundVendor, type VendorTarget } from './bind-vendor';
import { createSwapController, type SwapController } from './swap-controller';
import { createKeepaliveLog } from './keepalive-log';
import { tapKeepalives } from './keepalive-tap';
import { judgeTask } from './judge-task';
import type { ControlMessage, LaunchOptions, RunHandle } from './types';
import { createRedactor, runSecrets, type Redactor } from './redact-secrets';
import { createSplitSecretHold } from './hold-split-secrets';
import { createVendorTransports } from './vendor-transports';
import { processEnv } from '@/lib/config/server-env';

/**
 * The composition root: builds the clock, the transport (a simulated vendor, or the global
 * fetch for real ones) under the fault wrapper, the provider adapter over the real SDK, the
 * workspace and its tools, then runs the loop. The simulated path and the real path differ
 * only in which fetch sits under the fault wrapper.
 */
export function launchRun(options: LaunchOptions): RunHandle {
  const { runId, config } = options;
  const { fork } = options;
  // A fork's own time goes on from the last event it copies from its parent.
  const clock = createClock({ kind: config.clock, timeScale: config.timeScale, startAt: fork?.trajectory.events.at(-1)?.ts ?? 0 });
  const random = createRandom(config.seed);
  // Every event leaves through here (store, SSE, trace, CLI, logs): secrets are taken out of
  // its values before anyone serialises it. The fault wrapper also asks here whether the request
  // going out is a background call: the engine records each request (model_request) just
  // before sending it.
  const secrets = runSecrets({ apiKey: options.apiKey, env: processEnv() });
  let redactor: Redactor = createRedactor({ secrets });
  let backgroundRequest = false;
  // The totals so far, for a terminate this runtime has to write when the loop could not.
  let totals: Readonly<RunTotals> = NO_TOTALS;
  // A secret split across streamed deltas is held back until the joined text shows it (a held
  // part may go out as a delta of its own), so the log's seq is numbered here, after that.
  const hold = createSplitSecretHold(() => redactor);
  let seq = 0;
  const log = new EventLog(runId, clock, (event) => {
    if (event.event === 'model_request') backgroundRequest = event.background;
    totals = addToTotals(totals, event);
    for (const out of hold(event)) {
      out.seq = seq;
      seq += 1;
      // Too deep to encode (a model's tool argument nested thousands deep): a storage_error takes
      // its place before anything walks it, and the run goes on.
      options.onEvent(redactor.value(toStorableEvent(out)));
    }
  });
  let compactRequested = false;
  const abort = new AbortController();
  const pending: ControlMessage[] = [];
  let faults: FaultPlan = config.faults;
  let iteration = fork?.atTurn ?? 0;
  let swaps: SwapController | undefined;

  const run = async (): Promise<void> => {
    const scenario = getScenario(config.scenario);
    if (!scenario) throw new Error(`unknown scenario "${config.scenario}"`);
    const recovery = resolveRecovery(config.preset, config.recovery);
    const workspace = createWorkspace({ files: scenario.files });
    const toolbox = createToolbox({ scenario, ...(config.toolDescriptions ? { descriptions: config.toolDescriptions } : {}) });
    const task = config.task ?? scenario.task;

    // One fault wrapper over whichever vendor is in force: one request count, one plan.
    const transports = createVendorTransports({
      clock,
      random,
      policy: simulatedPolicy(config, scenario),
      first: config.provider.vendor,
    });
    // Requests go out only once the loop runs, by which time the swap controller exists.
    const inForce = (): SwapController['current'] => swaps!.current;
    // Keepalives are logged the same way whether the fault wrapper sent them or a real vendor did.
    const keepalives = createKeepaliveLog({ clock, emit: log.emit, iteration: () => iteration });
    // The fault wrapper's request numbers, for the keepalive tap beneath it (it passes each init through).
    const requestNos = new WeakMap<RequestInit, number>();
    let requestsSent = 0;
    const realVendor = tapKeepalives({
      fetch: (input, init) => transports(inForce().vendor)(input, init),
      onRequest: (init) => {
        const requestNo = init ? requestNos.get(init) : undefined;
        return ({ style, phase }) => {
          if (requestNo !== undefined) keepalives({ requestNo, style, phase });
        };
      },
    });
    const faultWrapper = withFaults({
      fetch: (input, init) => {
        const { vendor } = inForce();
        options.onVendorRequest?.({ vendor, body: typeof init?.body === 'string' ? init.body : '' });
        return isSimulated(vendor) ? transports(vendor)(input, init) : realVendor(input, init);
      },
      dialect: () => inForce().dialect.wire,
      plan: () => faults,
      clock,
      random: random.fork('faults'),
      isBackground: () => backgroundRequest,
      onInject: ({ requestNo, rule, label }) =>
        log.emit({ event: 'fault_injected', iteration, request_no: requestNo, rule_id: rule.id, action: rule.action.type, label }),
      onKeepalive: keepalives,
      onMiss: ({ requestNo, label }) =>
        log.emit({
          event: 'log',
          iteration,
          level: 'warn',
          message: `fault "${label}" could not apply: response ${requestNo} ended before the fault's point (nothing was changed)`,
        }),
    });
    const faulted = ((input: RequestInfo | URL, init?: RequestInit) => {
      requestsSent += 1;
      if (init) requestNos.set(init, requestsSent);
      return faultWrapper(input, init);
    }) as typeof fetch;
    // The SDK's own retries wait in wall time: the virtual clock must not jump past them.
    const sdkHold = recovery.sdkMaxRetries > 0 ? createSdkRetryHold(clock) : undefined;
    const sdkFetch = options.tapFetch ? options.tapFetch(faulted) : faulted;
    const bind = (target: VendorTarget): BoundVendor => {
      const bound = bindVendor({
        target,
        fetch: sdkHold ? sdkHold.wrapFetch(sdkFetch) : sdkFetch,
        maxRetries: recovery.sdkMaxRetries,
        handling: config.takeover,
      });
      return sdkHold ? { ...bound, provider: sdkHold.wrapProvider(bound.provider) } : bound;
    };
    const initial = bind({
      vendor: config.provider.vendor,
      model: config.provider.model,
      ...(config.provider.baseUrl ? { baseUrl: config.provider.baseUrl } : {}),
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    });
    swaps = createSwapController({
      config,
      initial,
      bind,
      handling: config.takeover,
      emit: log.emit,
      ...(fork
        ? { inherited: { vendor: fork.trajectory.vendor, model: fork.trajectory.model, reason: `forked from run ${fork.parentRunId} at turn ${fork.atTurn}` } }
        : {}),
    });
    const { vendor, model } = initial;
    const executor = createToolExecutor({
      toolbox,
      workspace,
      clock,
      random: random.fork('tools'),
      config: recovery.tools,
      faults: () => faults.tools,
      emit: log.emit,
    });

    // A fork opens at 0 like any run; its clock already stands where the copied turns end.
    const open: Emit = fork ? (body) => log.emitAt(body, 0) : log.emit;
    open({
      event: 'run_start',
      config,
      recovery,
      scenario: { id: scenario.id, title: scenario.title, task },
      tools: toolbox.specs().map((t) => t.name),
      vendor,
      model,
      clock: clock.kind,
      time_scale: clock.timeScale,
    });
    if (fork) await startFromParent({ fork, log, toolbox, workspace, clock, random: random.fork('fork') });

    await runLoop({
      config,
      recovery,
      provider: initial.provider,
      model,
      fallbackModel: initial.fallbackModel,
      system: config.system ?? DEFAULT_SYSTEM_PROMPT,
      task,
      tools: toolbox.specs(),
      executor,
      clock,
      random: random.fork('engine'),
      emit: log.emit,
      signal: abort.signal,
      rebind: ({ vendor: name, model: next, reason, iteration: n }) => {
        const vendor = VendorSchema.safeParse(name);
        if (!vendor.success) {
          log.emit({ event: 'log', iteration: n, level: 'warn', message: `cross-vendor fallback to "${name}" not made: no such vendor` });
          return undefined;
        }
        return swaps?.swapNow({ vendor: vendor.data, model: next }, 'fallback', reason, n);
      },
      onIteration: (n) => {
        iteration = n;
      },
      judgeTask: () => judgeTask({ scenario, workspace, clock, task, tests: config.verdict?.tests ?? 'shipped' }),
      ...(fork ? { resume: { messages: fork.trajectory.messages, afterTurn: fork.atTurn, totals: fork.trajectory.totals } } : {}),
      takeCompactRequest: () => {
        const asked = compactRequested;
        compactRequested = false;
        return asked;
      },
      beforeRequest: (n) => {
        for (const message of pending.splice(0)) {
          if (message.action === 'set_faults') {
            faults = message.faults;
            log.emit({ event: 'control', iteration: n, action: 'set_faults', faults, detail: describeFaults(faults) });
          } else if (message.action === 'compact') {
            compactRequested = true;
            log.emit({ event: 'control', iteration: n, action: 'compact', detail: 'compact now: a full compaction before this request, past the breaker' });
          } else if (message.action === 'swap') {
            // A key that comes with a swap is a secret of this run from now on, like the first one.
            if (message.target.apiKey) {
              secrets.push(message.target.apiKey);
              redactor = createRedactor({ secrets });
            }
            swaps?.request(message.target, 'control');
          }
        }
        return swaps?.apply(n);
      },
    });
  };

  const terminateNow = (reason: 'internal_error' | 'deadlock', message: string): void => {
    log.emit(terminateEvent({ iteration, reason, complete: false, message, totals }));
  };
  const finished = run().catch((error: unknown) => {
    terminateNow('internal_error', error instanceof Error ? error.message : String(error));
  });
  // On the virtual clock a wait nothing can end (no timer left, nothing running) would hang
  // forever or let the process exit mid-run: abort the run first, and if even that cannot
  // move it, close the log here.
  let forced: () => void = () => {};
  const forcedEnd = new Promise<void>((resolve) => (forced = resolve));
  if (clock instanceof VirtualClock) {
    clock.whenStuck(() => {
      if (log.closed) return;
      abort.abort(new RunBudgetExceeded('deadlock', DEADLOCK_MESSAGE));
      clock.whenStuck(() => {
        if (!log.closed) terminateNow('deadlock', `${DEADLOCK_MESSAGE}; the abort did not release it either`);
        forced();
      });
    });
  }
  const done = Promise.race([finished, forcedEnd]).then(() => {
    if (clock instanceof VirtualClock) clock.whenStuck(undefined);
  });

  return {
    runId,
    done,
    control(message) {
      if (log.closed) return;
      if (message.action === 'abort') {
        const reason = message.reason ?? 'aborted';
        log.emit({ event: 'control', iteration, action: 'abort', detail: reason });
        abort.abort(new RunAborted(reason));
        return;
      }
      pending.push(message);
    },
  };
}

/**
 * A fork's start: the link to its parent (an event), the parent's events of the copied turns
 * (their ts kept), and the workspace as those turns left it (their edits replayed).
 */
async function startFromParent(options: {
  fork: ForkStart;
  log: EventLog;
  toolbox: Toolbox;
  workspace: Workspace;
  clock: Clock;
  random: Random;
}): Promise<void> {
  const { fork, log } = options;
  const { trajectory } = fork;
  const files = await replayWorkspace({
    events: trajectory.events,
    toolbox: options.toolbox,
    workspace: options.workspace,
    clock: options.clock,
    random: options.random,
  });
  log.emitAt(
    {
      event: 'forked_from',
      parent_run_id: fork.parentRunId,
      turn: fork.atTurn,
      from_vendor: trajectory.vendor,
      from_model: trajectory.model,
      copied_events: trajectory.events.length,
      messages: trajectory.messages.length,
      inherited: {
        usd: Math.round(trajectory.totals.usd * 1e6) / 1e6,
        input_tokens: trajectory.totals.inputTokens,
        output_tokens: trajectory.totals.outputTokens,
      },
      workspace: files,
    },
    0,
  );
  for (const event of trajectory.events) log.emitAt({ ...event } as EventBody, event.ts);
}

const DEADLOCK_MESSAGE = 'the virtual clock had no timer left and nothing running: nothing could ever wake the run';

/**
 * The simulated model: the one the config names, else the scenario's own — unless the task
 * was replaced by one the scenario has no script for.
 */
export function simulatedPolicy(config: RunConfig, scenario: Scenario): Policy {
  if (config.policy) return createPolicy(config.policy, scenario);
  if (config.task !== undefined && config.task.trim() !== scenario.task.trim()) return createFreeTaskPolicy(scenario);
  return createPolicy(scenario.policy, scenario);
}

function describeFaults(plan: FaultPlan): string {
  const rules = plan.rules.filter((r) => r.enabled).map((r) => r.label ?? r.id);
  const tools = plan.tools.filter((t) => t.enabled).map((t) => `${t.kind} ${t.tool}`);
  const all = [...rules, ...tools];
  return all.length === 0 ? 'no faults' : all.join(', ');
}
