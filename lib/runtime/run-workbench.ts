import type { Clock, Random } from '@/lib/clock';
import type { Emit } from '@/lib/engine';
import {
  resolveRecovery,
  type EventBody,
  type EventOf,
  type FaultPlan,
  type RecoveryConfig,
  type RunConfig,
} from '@/lib/protocol';
import type { ToolSpec } from '@/lib/providers';
import {
  createToolbox,
  createToolExecutor,
  createWorkspace,
  getScenario,
  loadTaskDir,
  loadUploadedTask,
  type AnyTool,
  type Scenario,
  type SlotShare,
  type ToolExecutor,
  type Toolbox,
  type Workspace,
} from '@/lib/tools';
import { judgeTask } from './judge-task';

/** What a run works on: its scenario, the recovery in force, the workspace and its tools. */
export interface RunWorkbench {
  scenario: Scenario;
  recovery: RecoveryConfig;
  task: string;
  workspace: Workspace;
  toolbox: Toolbox;
  tools: ToolSpec[];
  executor: ToolExecutor;
  /**
   * A tool executor for a loop run under this one (a sub-agent): the same tools and workspace,
   * a failure budget and guards of its own, its events to `emit`, its dice forked by `seedKey`.
   */
  nestedExecutor: (emit: Emit, seedKey: string) => ToolExecutor;
  /** The task verdict: the scenario's check on the final workspace. */
  judge: () => ReturnType<typeof judgeTask>;
}

/** Builds a run's workbench from its config; throws for a scenario that does not exist. */
export function createRunWorkbench(options: {
  config: RunConfig;
  clock: Clock;
  random: Random;
  emit: Emit;
  faults: () => FaultPlan;
  /** The run, as the check sandbox's pool knows it: its fair share of the pool's slots. */
  share: SlotShare;
  /** The final answer so far (the model's last text, as the log has it), for the task's answer scorers. */
  answer?: () => string | undefined;
  /** Tools the run's MCP servers listed (lib/tools/mcp): one named like a built-in tool takes its place. */
  extraTools?: readonly AnyTool[];
}): RunWorkbench {
  const { config, clock, emit } = options;
  // A task folder of one's own (CLI and sweeps) or an uploaded one is read here, refused if it
  // changed since it was pinned; an uploaded folder's name is the config's scenario (its id).
  const scenario = config.taskDir
    ? loadTaskDir(config.taskDir)
    : config.taskUpload
      ? loadUploadedTask(config.taskUpload, { name: config.scenario })
      : getScenario(config.scenario);
  if (!scenario) throw new Error(`unknown scenario "${config.scenario}"`);
  const recovery = resolveRecovery(config.preset, config.recovery);
  const workspace = createWorkspace({ files: scenario.files });
  const toolbox = createToolbox({
    scenario,
    ...(options.extraTools?.length ? { extra: options.extraTools } : {}),
    ...(config.toolDescriptions ? { descriptions: config.toolDescriptions } : {}),
  });
  const task = config.task ?? scenario.task;
  const faults = () => options.faults().tools;
  const executorFor = (to: Emit, random: Random) =>
    createToolExecutor({
      toolbox,
      workspace,
      clock,
      random,
      config: recovery.tools,
      faults,
      emit: to,
      share: options.share,
    });
  const executor = executorFor(emit, options.random.fork('tools'));
  const nestedExecutor = (to: Emit, seedKey: string) =>
    executorFor(to, options.random.fork('tools').fork(seedKey));
  const judge = () =>
    judgeTask({
      scenario,
      workspace,
      clock,
      task,
      tests: config.verdict?.tests ?? 'shipped',
      share: options.share,
      answer: options.answer?.(),
    });
  return {
    scenario,
    recovery,
    task,
    workspace,
    toolbox,
    tools: toolbox.specs(),
    executor,
    nestedExecutor,
    judge,
  };
}

/** The run_start event: the config, the recovery in force, the scenario, the tools, the vendor and model, the clock. */
export function runStartEvent(options: {
  config: RunConfig;
  bench: RunWorkbench;
  vendor: string;
  model: string;
  clock: Clock;
}): EventBody<EventOf<'run_start'>> {
  const { config, bench, clock } = options;
  return {
    event: 'run_start',
    config,
    recovery: bench.recovery,
    scenario: { id: bench.scenario.id, title: bench.scenario.title, task: bench.task },
    tools: bench.tools.map((t) => t.name),
    vendor: options.vendor,
    model: options.model,
    clock: clock.kind,
    time_scale: clock.timeScale,
  };
}
