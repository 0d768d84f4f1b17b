import { createRandom, VirtualClock, type Clock } from '@/lib/clock';
import type { EngineProbe } from '@/lib/engine/engine-deps';
import { EventLog, type Emit } from '@/lib/engine/event-log';
import type { MechanismModule } from '@/lib/engine/mechanism-port';
import { runLoop, type LoopOptions } from '@/lib/engine/run-loop';
import {
  RunConfigSchema,
  resolveRecovery,
  type PresetId,
  type RecoveryOverrides,
  type RunConfigInput,
  type RunEvent,
} from '@/lib/protocol';
import {
  createScriptedProvider,
  type Script,
  type ScriptedProvider,
} from '@/lib/providers/scripted-provider';
import { createToolExecutor } from '@/lib/tools/executor';
import { createToolbox } from '@/lib/tools/registry';
import { fixFailingTest } from '@/lib/tools/scenarios/fix-failing-test';
import { createWorkspace } from '@/lib/tools/workspace';

/**
 * runLoop over the scripted provider, the real tool executor and the virtual clock: the
 * engine alone, with no SDK and no simulated vendor underneath, in milliseconds.
 */
export async function runScripted(options: {
  script: Script;
  preset?: PresetId;
  recovery?: RecoveryOverrides;
  /** The run's model (claude-sim-sonnet unless given). */
  model?: string;
  config?: Omit<Partial<RunConfigInput>, 'provider' | 'preset' | 'recovery'>;
  /** Another clock than the virtual one (a real clock at a fast time scale). */
  clock?: Clock;
  /** Handed to the engine as its deps' probe. */
  probe?: EngineProbe;
  /** Mechanisms on the port beyond the built-in modules (a test's fixture, a strategy). */
  mechanisms?: readonly MechanismModule<never>[];
  /** The task verdict the loop asks for before terminate (none unless given). */
  judgeTask?: LoopOptions['judgeTask'];
}): Promise<{ events: RunEvent[]; requests: ScriptedProvider['requests'] }> {
  const clock = options.clock ?? new VirtualClock();
  const config = RunConfigSchema.parse({
    provider: { vendor: 'sim-anthropic' },
    clock: 'virtual',
    preset: options.preset ?? 'codesmith',
    ...options.config,
  });
  const recovery = resolveRecovery(config.preset, options.recovery);
  const provider = createScriptedProvider({ script: options.script, clock });
  const events: RunEvent[] = [];
  const log = new EventLog('scripted', clock, (e) => events.push(e));
  const random = createRandom(config.seed);
  const toolbox = createToolbox({ scenario: fixFailingTest });
  const workspace = createWorkspace({ files: fixFailingTest.files });
  const executorFor = (emit: Emit) =>
    createToolExecutor({
      toolbox,
      workspace,
      clock,
      random: random.fork('tools'),
      config: recovery.tools,
      faults: () => [],
      emit,
    });
  const executor = executorFor(log.emit);
  await runLoop({
    config,
    recovery,
    provider,
    model: options.model ?? 'claude-sim-sonnet',
    fallbackModel: 'claude-sim-haiku',
    system: 'You are a test agent.',
    task: fixFailingTest.task,
    tools: toolbox.specs(),
    executor,
    nestedTools: executorFor,
    clock,
    random,
    emit: log.emit,
    signal: new AbortController().signal,
    probe: options.probe,
    ...(options.mechanisms ? { mechanisms: options.mechanisms } : {}),
    ...(options.judgeTask ? { judgeTask: options.judgeTask } : {}),
  });
  return { events, requests: provider.requests };
}
