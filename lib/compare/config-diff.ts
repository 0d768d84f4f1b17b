import type { EventOf } from '@/lib/protocol';
import type { ConfigDiffRow } from '@/lib/protocol/http/compare';
import { stableJson } from './run-steps';

/**
 * The configs of two runs diffed field by field, as each run_start recorded them: the run
 * config (scenario, vendor, preset, faults, seed, budgets, …) with nested fields flattened to
 * dotted paths (`budgets.maxIterations`, `faults.rules.0.action.status`), and the recovery
 * configuration the run actually used (preset and overrides resolved) under `recovery.`, so
 * switching one mechanism off shows as the one field it changes. Only differing fields are
 * returned, sorted by path.
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
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) {
      out.set(prefix, Array.isArray(value) ? '[]' : '{}');
      return;
    }
    for (const [key, v] of entries) flatten(v, prefix ? `${prefix}.${key}` : key, out);
    return;
  }
  if (value === undefined) return;
  out.set(prefix, stableJson(value));
}
