import {
  presetPolicy,
  resolveRecovery,
  RunConfigSchema,
  seedList,
  taskDirName,
  type PromptSet,
  type PromptSetRef,
  type RunConfig,
  type SweepEndpoint,
  type SweepGrid,
} from '@/lib/protocol';
import { withMechanismOff } from '@/lib/mechanisms/mechanisms';

/** One run of a sweep: a cell of the grid and a seed, with the config it runs. */
export interface SweepJob {
  /** Position in the job list (0-based); a run's id is `<sweep id>-<index>`. */
  index: number;
  /** The row the run belongs to: `config|scenario|faultPlan|vendor` (then `|model`, `|promptSet` when the grid has those axes). */
  key: string;
  configId: string;
  configLabel: string;
  scenario: string;
  faultPlan: string;
  /** The target: a simulated vendor, or a real endpoint's id. */
  vendor: string;
  /** The model axis' value, when the grid has one. */
  model?: string;
  /** The prompt axis' value (`name v3`), when the grid has one. */
  promptSet?: string;
  /** The real endpoint the run goes to (its limits apply to it); absent on a simulated vendor. */
  endpoint?: SweepEndpoint;
  seed: number;
  config: RunConfig;
}

/** Finds a saved prompt-set version (the sweep's caller reads its store: readPromptSets). */
export type PromptSetLookup = (ref: PromptSetRef) => PromptSet | undefined;

/** Reads a saved prompt-set version from a store (it answers asynchronously). */
export type PromptSetReader = (ref: PromptSetRef) => Promise<PromptSet | undefined>;

/**
 * The saved versions a grid's prompt axis names, read from the store once, as the lookup that
 * expanding and checking the grid use (a version the store does not hold is looked up as absent).
 */
export async function readPromptSets(grid: SweepGrid, read: PromptSetReader): Promise<PromptSetLookup> {
  const found = new Map<string, PromptSet>();
  for (const ref of grid.promptSets ?? []) {
    const set = await read(ref);
    if (set) found.set(`${ref.name}@${ref.version}`, set);
  }
  return (ref) => found.get(`${ref.name}@${ref.version}`);
}

export function cellKey(parts: {
  configId: string;
  scenario: string;
  faultPlan: string;
  vendor: string;
  model?: string;
  promptSet?: string;
}): string {
  const base = `${parts.configId}|${parts.scenario}|${parts.faultPlan}|${parts.vendor}`;
  return `${base}${parts.model !== undefined ? `|${parts.model}` : ''}${parts.promptSet !== undefined ? `|${parts.promptSet}` : ''}`;
}

/** One row of the results table: a cell of the grid without its seeds. */
export type SweepCell = Pick<
  SweepJob,
  'key' | 'configId' | 'configLabel' | 'scenario' | 'faultPlan' | 'vendor' | 'model' | 'promptSet'
>;

/** A prompt-set version as the prompt axis names it. */
export function promptSetLabel(ref: PromptSetRef): string {
  return `${ref.name} v${ref.version}`;
}

/** The targets: the simulated vendors, then the real endpoints. */
function targetsOf(grid: SweepGrid): Array<{ id: string; endpoint?: SweepEndpoint }> {
  return [
    ...grid.vendors.map((id) => ({ id })),
    ...grid.endpoints.map((endpoint) => ({ id: endpoint.id, endpoint })),
  ];
}

/** The scenario axis: the scenarios by id, then the task folders (each named by its id, else its folder's name). */
function scenariosOf(grid: SweepGrid): Array<{ id: string; task?: NonNullable<SweepGrid['tasks']>[number] }> {
  return [
    ...grid.scenarios.map((id) => ({ id })),
    ...(grid.tasks ?? []).map((task) => ({ id: task.id ?? taskDirName(task.dir), task })),
  ];
}

/** The cells in table order: scenario, configuration, fault plan, target, model, prompt set. */
function cellsOf(grid: SweepGrid) {
  const models: Array<string | undefined> = grid.models ?? [undefined];
  const prompts: Array<PromptSetRef | undefined> = grid.promptSets ?? [undefined];
  const cells: Array<
    SweepCell & {
      preset: string;
      recovery: SweepGrid['configurations'][number]['recovery'];
      strategy?: SweepGrid['configurations'][number]['strategy'];
      task?: NonNullable<SweepGrid['tasks']>[number];
      plan: SweepGrid['faultPlans'][number]['plan'];
      endpoint?: SweepEndpoint;
      promptRef?: PromptSetRef;
    }
  > = [];
  for (const { id: scenario, task } of scenariosOf(grid)) {
    for (const configuration of configurationsOf(grid)) {
      for (const faultPlan of grid.faultPlans) {
        for (const target of targetsOf(grid)) {
          for (const model of models) {
            for (const promptRef of prompts) {
              const parts = {
                configId: configuration.id,
                scenario,
                faultPlan: faultPlan.id,
                vendor: target.id,
                ...(model !== undefined ? { model } : {}),
                ...(promptRef ? { promptSet: promptSetLabel(promptRef) } : {}),
              };
              cells.push({
                key: cellKey(parts),
                configLabel: configuration.label,
                ...parts,
                preset: configuration.preset,
                recovery: configuration.recovery,
                ...(configuration.strategy ? { strategy: configuration.strategy } : {}),
                ...(task ? { task } : {}),
                plan: faultPlan.plan,
                ...(target.endpoint ? { endpoint: target.endpoint } : {}),
                ...(promptRef ? { promptRef } : {}),
              });
            }
          }
        }
      }
    }
  }
  return cells;
}

/** The grid's cells in table order (cheap: no run configs are built). */
export function listCells(grid: SweepGrid): SweepCell[] {
  // A re-run's table holds only the cells of the jobs it runs (job i is cell ⌊i / seeds⌋, as expandGrid orders them).
  const seeds = seedList(grid.seeds).length;
  const kept = grid.rerun ? new Set(grid.rerun.jobs.map((j) => Math.floor(j.job / seeds))) : undefined;
  return cellsOf(grid)
    .filter((_, i) => !kept || kept.has(i))
    .map(({ key, configId, configLabel, scenario, faultPlan, vendor, model, promptSet }) => ({
      key,
      configId,
      configLabel,
      scenario,
      faultPlan,
      vendor,
      ...(model !== undefined ? { model } : {}),
      ...(promptSet !== undefined ? { promptSet } : {}),
    }));
}

/**
 * The configurations with the policy axis applied: each configuration once with each policy
 * (its recovery.policy set), or as given when the grid has no policy axis.
 */
function withPolicies(grid: SweepGrid): SweepGrid['configurations'] {
  if (!grid.policies) return grid.configurations;
  return grid.configurations.flatMap((c) =>
    grid.policies!.map((p) => ({
      id: `${c.id}-policy-${p.id}`,
      label: `${c.label ?? c.id} · policy ${p.label ?? p.id}`,
      preset: c.preset,
      recovery: { ...c.recovery, policy: p.policy ?? presetPolicy(resolveRecovery(p.preset!)) },
    })),
  );
}

/** The configurations as rows: each as given (per policy), then each with one mechanism off. */
function configurationsOf(grid: SweepGrid) {
  return withPolicies(grid).flatMap((c) => [
    { id: c.id, label: c.label ?? c.id, preset: c.preset, recovery: c.recovery, strategy: c.strategy },
    ...grid.mechanismsOff.map((m) => ({
      id: `${c.id}-no-${m}`,
      label: `${c.label ?? c.id} − ${m}`,
      preset: c.preset,
      recovery: withMechanismOff(c.recovery, m),
      strategy: c.strategy,
    })),
  ]);
}

/** A prompt set's texts as a run config's fields ('' keeps the built-in text, as the set means it). */
function promptFields(set: PromptSet): Pick<RunConfig, 'system' | 'task' | 'toolDescriptions' | 'promptSet'> {
  return {
    ...(set.system ? { system: set.system } : {}),
    ...(set.task ? { task: set.task } : {}),
    ...(Object.keys(set.toolDescriptions).length > 0 ? { toolDescriptions: set.toolDescriptions } : {}),
    promptSet: { name: set.name, version: set.version },
  };
}

/**
 * The job list of a grid, in a fixed order (scenario, configuration, mechanism off, fault
 * plan, target, model, prompt set, seed): the same grid always gives the same jobs, so the same
 * table. A simulated vendor's run is on the virtual clock; a real endpoint's on the real clock
 * at the grid's time scale. A grid with a prompt axis needs `promptSets` to read its versions.
 */
export function expandGrid(grid: SweepGrid, options: { promptSets?: PromptSetLookup } = {}): SweepJob[] {
  const seeds = seedList(grid.seeds);
  const jobs: SweepJob[] = [];
  for (const cell of cellsOf(grid)) {
    let prompts: ReturnType<typeof promptFields> | undefined;
    if (cell.promptRef) {
      const set = options.promptSets?.(cell.promptRef);
      if (!set)
        throw new Error(
          `promptSets: there is no saved prompt set "${cell.promptRef.name}" version ${cell.promptRef.version}`,
        );
      prompts = promptFields(set);
    }
    const endpoint = cell.endpoint;
    if (cell.strategy && !cell.strategy.sha256)
      throw new Error(
        `configurations: strategy ${cell.strategy.file} is not pinned (the sweep CLI pins each with the sha256 of its file)`,
      );
    const task = cell.task;
    if (task && !task.sha256)
      throw new Error(
        `tasks: task folder ${task.dir} is not pinned (the sweep CLI pins each with the sha256 of its files)`,
      );
    for (const seed of seeds) {
      const config = RunConfigSchema.parse({
        provider: endpoint
          ? {
              vendor: endpoint.vendor,
              ...(cell.model !== undefined ? { model: cell.model } : {}),
              ...(endpoint.baseUrl ? { baseUrl: endpoint.baseUrl } : {}),
              keySource: endpoint.keySource,
            }
          : { vendor: cell.vendor, ...(cell.model !== undefined ? { model: cell.model } : {}) },
        scenario: cell.scenario,
        preset: cell.preset,
        recovery: cell.recovery,
        faults: cell.plan,
        seed,
        ...(endpoint ? { clock: 'real', timeScale: grid.timeScale } : { clock: 'virtual' }),
        ...(prompts ?? {}),
        ...(grid.budgets ? { budgets: grid.budgets } : {}),
        ...(grid.maxOutputTokens ? { maxOutputTokens: grid.maxOutputTokens } : {}),
        ...(cell.strategy ? { strategy: cell.strategy } : {}),
        ...(task?.sha256 ? { taskDir: { dir: task.dir, sha256: task.sha256 } } : {}),
      });
      jobs.push({
        index: jobs.length,
        key: cell.key,
        configId: cell.configId,
        configLabel: cell.configLabel,
        scenario: cell.scenario,
        faultPlan: cell.faultPlan,
        vendor: cell.vendor,
        ...(cell.model !== undefined ? { model: cell.model } : {}),
        ...(cell.promptSet !== undefined ? { promptSet: cell.promptSet } : {}),
        ...(endpoint ? { endpoint } : {}),
        seed,
        config,
      });
    }
  }
  // A re-run (grid.rerun): only the jobs it names, each keeping its index in the full grid.
  if (grid.rerun) {
    const chosen = new Set(grid.rerun.jobs.map((j) => j.job));
    return jobs.filter((job) => chosen.has(job.index));
  }
  return jobs;
}
