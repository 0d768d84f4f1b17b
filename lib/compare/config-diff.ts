import type { EventOf } from '@/lib/protocol';
import type { ConfigDiffRow } from '@/lib/protocol/http/compare';
import { stableJson } from './run-steps';

/**
 * The configs of two runs diffed field by field, as each run_start recorded them: the run
 * config (scenario, vendor, preset, faults, seed, budgets, …) with nested fields flattened to
 * dotted paths (`budgets.maxIterations`), and the recovery configuration the run actually
 * used (preset and overrides resolved) under `recovery.`, so switching one mechanism off shows
 * as the one field it changes. A list of things with ids (fault rules, tool faults) is keyed by
 * id, one row a thing (`faults.rules[overload-2]`): a person adds, removes or edits a rule as
 * one thing, and keyed by position one rule added in front made every later rule's every
 * field look changed. Only differing fields are returned, sorted by path.
 */
export function configDiff(a: EventOf<'run_start'>, b: EventOf<'run_start'>): ConfigDiffRow[] {
  const left = effectiveConfig(a);
  const right = effectiveConfig(b);
  const paths = [...new Set([...left.keys(), ...right.keys()])].sort();
  const rows: ConfigDiffRow[] = [];
  for (const path of paths) {
    const x = left.get(path) ?? null;
    const y = right.get(path) ?? null;
    if (x !== y) rows.push({ path, a: x, b: y });
  }
  return rows;
}

/** The fields of a run_start as dotted path → JSON text. */
export function effectiveConfig(start: EventOf<'run_start'>): Map<string, string> {
  const out = new Map<string, string>();
  const { recovery: _overrides, ...config } = start.config;
  flatten(config, '', out);
  flatten(start.recovery, 'recovery', out);
  return out;
}

function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  // An empty list writes no row: its items' rows on the other side say what it lacks.
  const byId = Array.isArray(value) ? itemsById(value) : undefined;
  if (byId) {
    for (const [id, item] of byId) out.set(`${prefix}[${id}]`, stableJson(item));
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) {
      out.set(prefix, '{}');
      return;
    }
    for (const [key, v] of entries) flatten(v, prefix ? `${prefix}.${key}` : key, out);
    return;
  }
  if (value === undefined) return;
  out.set(prefix, stableJson(value));
}

/** A list's items by their ids, when every item is an object with its own string id. */
function itemsById(list: readonly unknown[]): Map<string, unknown> | undefined {
  const byId = new Map<string, unknown>();
  for (const item of list) {
    const id = item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
    if (typeof id !== 'string' || byId.has(id)) return undefined;
    byId.set(id, item);
  }
  return byId;
}
