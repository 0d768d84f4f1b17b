import { findContradictions } from '@/lib/run-view/explain/why-claims';
import {
  resolveRecovery,
  type EventOf,
  type PresetId,
  type RecoveryOverrides,
  type RunEvent,
} from '@/lib/protocol';
import type { MatrixVendor } from './baseline';
import { MATRIX_PRESETS, MATRIX_VENDORS } from './cells';
import { runGuarded } from './run-guarded';

/**
 * The tool-argument repair ladder in the matrix: the damaged-args simulated model (each kind
 * of damage once: a trailing comma, single quotes, unquoted keys, a cut-off closing brace — the
 * JSON rung's — and a number sent as a string — the coerce rung's) × vendor × ladder setting
 * (every preset, and CodeSmith with each rung switched off alone). The promise is read from the
 * effective config: a rung that is on repairs its damage and the call runs on the first try; a
 * rung that is off leaves its damage to the re-ask with the specific error; the run finishes
 * either way, and no why line is contradicted by the run's own later events.
 */

/** The damage the damaged-args model sends, by the rung that repairs it (seed 5: the lesson's run). */
const DAMAGE = {
  json: [
    'trailing comma removed',
    'single quotes replaced by double quotes',
    'unquoted keys quoted',
    'cut-off closing brace added',
  ],
  coerce: ['max_results: "50" → 50'],
};
const SEED = 5;
/** A repair cell runs the whole scenario (its checks in the sandbox's child processes): a longer guard than a fault cell's. */
export const REPAIR_GUARD_MS = 60_000;

export interface RepairSetting {
  label: string;
  preset: PresetId;
  overrides: RecoveryOverrides;
}

/** Every preset as it is, and CodeSmith's ladder with one rung off at a time. */
export const REPAIR_SETTINGS: readonly RepairSetting[] = [
  ...MATRIX_PRESETS.map((preset) => ({ label: preset, preset, overrides: {} })),
  { label: 'codesmith, JSON rung off', preset: 'codesmith', overrides: { tools: { repairJson: false } } },
  { label: 'codesmith, coerce rung off', preset: 'codesmith', overrides: { tools: { coerceArgs: false } } },
];

export interface RepairCell {
  vendor: MatrixVendor;
  setting: RepairSetting;
  /**
   * The changes each rung makes (in order), and how many damaged calls go back to the model.
   * `exact` is false where the safe executor disables a tool after its failures: the model then
   * turns to other calls, so only which rungs act (none of a rung that is off) is promised.
   */
  promise: { json: string[]; coerce: string[]; reasked: number; exact: boolean };
}

export function repairCells(): RepairCell[] {
  return MATRIX_VENDORS.flatMap((vendor) =>
    REPAIR_SETTINGS.map((setting) => {
      const { tools } = resolveRecovery(setting.preset, setting.overrides);
      const json = tools.repairJson ? DAMAGE.json : [];
      const coerce = tools.coerceArgs ? DAMAGE.coerce : [];
      const reasked = DAMAGE.json.length - json.length + DAMAGE.coerce.length - coerce.length;
      return { vendor, setting, promise: { json, coerce, reasked, exact: !tools.safeExecutor } };
    }),
  );
}

export interface RepairResult {
  cell: RepairCell;
  failures: string[];
  wallMs: number;
}

/** Runs one cell through the real runtime and says where it broke its promise (empty: kept). */
export async function runRepairCell(cell: RepairCell, options: { guardMs: number }): Promise<RepairResult> {
  const run = await runGuarded({
    guardMs: options.guardMs,
    runId: `matrix-repair-${cell.vendor}-${cell.setting.label}`,
    config: {
      provider: { vendor: cell.vendor },
      policy: 'damaged-args',
      preset: cell.setting.preset,
      recovery: cell.setting.overrides,
      seed: SEED,
    },
  });
  return { cell, failures: repairFailures(cell, run.events, run.hung), wallMs: run.wallMs };
}

function repairFailures(cell: RepairCell, events: RunEvent[], hung: boolean): string[] {
  if (hung) return ['hung: the run did not end within its guard'];
  const failures: string[] = [];
  const of = <T extends RunEvent['event']>(type: T) =>
    events.filter((e): e is EventOf<T> => e.event === type);
  const repairs = of('arg_repair');
  const changes = (rung: 'json' | 'coerce') =>
    repairs.filter((r) => r.rung === rung).flatMap((r) => r.changes);
  const expectSame = (what: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want))
      failures.push(`${what}: ${JSON.stringify(got)}, promised ${JSON.stringify(want)}`);
  };
  const calls = of('tool_call');
  const reasked = calls.filter((c) => c.status === 'invalid_args').length;
  if (cell.promise.exact) {
    expectSame('JSON rung changes', changes('json'), cell.promise.json);
    expectSame('coerce rung changes', changes('coerce'), cell.promise.coerce);
    expectSame('calls re-asked with the specific error', reasked, cell.promise.reasked);
  } else {
    if (cell.promise.json.length === 0) expectSame('JSON rung changes (rung off)', changes('json'), []);
    if (cell.promise.coerce.length === 0) expectSame('coerce rung changes (rung off)', changes('coerce'), []);
    if (cell.promise.reasked > 0 && reasked === 0)
      failures.push('no damaged call went back to the model, though a rung is off');
  }
  // Each repaired call is marked as repaired, and each repair's call went on with its arguments.
  expectSame(
    'calls marked repaired',
    calls.filter((c) => c.repaired).map((c) => c.call_id),
    [...new Set(repairs.map((r) => r.call_id))],
  );
  if (repairs.some((r) => r.next === 'reask'))
    failures.push('a repair still ended in a re-ask: the damage was not repaired');
  const end = events.at(-1);
  if (end?.event !== 'terminate' || end.reason !== 'end_turn' || !end.complete)
    failures.push(
      `ended ${end?.event === 'terminate' ? end.reason : 'without terminate'}, promised end_turn`,
    );
  for (const c of findContradictions(events))
    failures.push(`why line of ${c.event} #${c.seq} says ${c.claim}`);
  return failures;
}
