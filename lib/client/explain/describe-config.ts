import type { RunConfig } from '@/lib/protocol';
import { toolFaultLabel } from '@/lib/protocol/faults';
import { vendorDefaults } from '@/lib/protocol/vendors';
import type { SwapView } from '@/lib/run-view/fold-takeover';
import { FAULT_TOGGLES } from '../forms/fault-catalog';
import { timeScaleLabel } from '@/lib/run-view/format';

export interface ConfigLine {
  label: string;
  value: string;
  /** Away from the default: drawn stronger, so what was changed stands out. */
  changed: boolean;
}

/** Recovery overrides as `section.field = value` lines. */
function overrideLines(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return [`${prefix} = ${JSON.stringify(value)}`];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    overrideLines(v, prefix ? `${prefix}.${k}` : k),
  );
}

const clip = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The config that produced a run, one readable line per thing a person changes. */
export function describeConfig(config: RunConfig): ConfigLine[] {
  const model = config.provider.model || `${vendorDefaults(config.provider.vendor).model} (default)`;
  const rules = config.faults.rules
    .filter((r) => r.enabled)
    .map((r) => r.label ?? FAULT_TOGGLES.find((t) => t.id === r.id)?.label ?? r.id);
  const tools = config.faults.tools.filter((t) => t.enabled).map(toolFaultLabel);
  const subagents = (config.faults.subagents ?? [])
    .filter((f) => f.enabled)
    .map((f) => `${f.child === undefined ? 'every sub-agent' : `sub-agent c${f.child}`} ${f.kind}`);
  const faults = [...rules, ...tools, ...subagents];
  const overrides = Object.keys(config.recovery).length > 0 ? overrideLines(config.recovery) : [];
  const described = Object.keys(config.toolDescriptions ?? {});
  const b = config.budgets;
  return [
    { label: 'scenario', value: config.scenario, changed: false },
    {
      label: 'task',
      value: config.task ? clip(config.task) : 'the scenario’s own',
      changed: config.task !== undefined,
    },
    { label: 'vendor / model', value: `${config.provider.vendor} / ${model}`, changed: false },
    ...(config.replay
      ? [
          {
            label: 'replayed from',
            value: `cassette ${config.replay.cassette}; off the recording: ${config.replay.offRecording === 'stop' ? 'the run stops' : 'it goes on on the simulated model'}`,
            changed: true,
          },
        ]
      : []),
    ...(config.policy ? [{ label: 'simulated model', value: config.policy, changed: true }] : []),
    { label: 'preset', value: config.preset, changed: false },
    {
      label: 'overrides',
      value: overrides.length > 0 ? overrides.join(', ') : 'none',
      changed: overrides.length > 0,
    },
    { label: 'faults', value: faults.length > 0 ? faults.join(', ') : 'none', changed: faults.length > 0 },
    { label: 'seed', value: String(config.seed), changed: false },
    {
      label: 'clock',
      value:
        config.clock === 'virtual'
          ? 'virtual'
          : config.clock === 'paced'
            ? `paced: the virtual run, shown ${timeScaleLabel(config.timeScale)} (time scale ${config.timeScale})`
            : `real, ${timeScaleLabel(config.timeScale)} (time scale ${config.timeScale})`,
      changed: false,
    },
    {
      label: 'budgets',
      value: `${b.maxIterations} turns · $${b.maxCostUsd} · ${b.maxRunMs / 60_000} min · ${b.maxAttempts} attempts`,
      changed: false,
    },
    {
      label: 'output cap',
      value: config.maxOutputTokens ? `${config.maxOutputTokens} tokens` : 'the preset’s',
      changed: config.maxOutputTokens !== undefined,
    },
    {
      label: 'system prompt',
      value: config.system ? clip(config.system) : 'built in',
      changed: config.system !== undefined,
    },
    {
      label: 'tool descriptions',
      value: described.length > 0 ? `replaced: ${described.join(', ')}` : 'the tools’ own',
      changed: described.length > 0,
    },
    {
      label: 'prompt set',
      value: config.promptSet ? `${config.promptSet.name} v${config.promptSet.version}` : 'none',
      changed: config.promptSet !== undefined,
    },
    ...(config.swaps.length > 0
      ? [
          {
            label: 'swaps',
            value: config.swaps
              .map(
                (s) =>
                  `turn ${s.atTurn} → ${s.vendor} / ${s.model || `${vendorDefaults(s.vendor).model} (default)`}${s.takeover?.naive ? ' (naive)' : ''}`,
              )
              .join(', '),
            changed: true,
          },
        ]
      : []),
    {
      label: 'takeover',
      value: `foreign thinking ${config.takeover.foreignThinking}${config.takeover.naive ? ', naive (credentials sent as they were)' : ''}`,
      changed: config.takeover.naive || config.takeover.foreignThinking !== 'drop',
    },
    {
      label: 'task verdict',
      value:
        config.verdict?.tests === 'workspace'
          ? 'runs the workspace’s own tests (the model’s edits count)'
          : 'runs the scenario’s tests as shipped',
      changed: config.verdict?.tests === 'workspace',
    },
  ];
}

/** How each swap came about, in the config line's words. */
const SWAP_CAUSE: Record<SwapView['cause'], string> = {
  control: 'by hand',
  scheduled: 'planned',
  fallback: 'cross-vendor fallback',
  fork: 'the fork’s start',
};

/**
 * The vendor changes of a run for its one-line config summary: each swap made (from its `swap`
 * event: turn, vendor and model, cause), then the planned swaps whose turn has not come yet.
 * Undefined when the run neither swapped nor plans to.
 */
export function swapsSummary(config: RunConfig, swaps: readonly SwapView[]): string | undefined {
  const made = swaps.map((s) => `turn ${s.iteration} → ${s.toVendor}/${s.toModel} (${SWAP_CAUSE[s.cause]})`);
  const done = new Set(swaps.filter((s) => s.cause !== 'fork').map((s) => s.iteration));
  const planned = config.swaps
    .filter((s) => !done.has(s.atTurn))
    .map(
      (s) =>
        `turn ${s.atTurn} → ${s.vendor}/${s.model || vendorDefaults(s.vendor).model} (planned, not yet made)`,
    );
  const all = [...made, ...planned];
  return all.length > 0 ? `${all.length === 1 ? 'swap' : 'swaps'}: ${all.join(', ')}` : undefined;
}
