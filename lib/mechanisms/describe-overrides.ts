import {
  DEFAULT_TAKEOVER,
  PRESETS,
  PresetIdSchema,
  resolveRecovery,
  type RecoveryConfig,
  type RecoveryOverrides,
  type RunConfig,
} from '@/lib/protocol';
import { MECHANISM_LIST } from './mechanisms';

/** The part of a stored config that says how a run's recovery differs from its preset. */
export type OverridableConfig = Partial<
  Pick<RunConfig, 'preset' | 'recovery' | 'takeover' | 'verdict' | 'pause' | 'mcp'>
>;

type Path = `${string}.${string}` | 'sdkMaxRetries';

/** A recovery config read at a dotted path (`retry.enabled`, or `sdkMaxRetries`). */
function at(config: RecoveryConfig, path: Path): unknown {
  if (path === 'sdkMaxRetries') return config.sdkMaxRetries;
  const [group, field] = path.split('.') as [keyof RecoveryConfig, string];
  const value = config[group];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[field] : undefined;
}

/** Every dotted path an override names (`{ retry: { enabled: false } }` → `retry.enabled`). */
function pathsOf(overrides: RecoveryOverrides): Path[] {
  return Object.entries(overrides).flatMap(([group, fields]): Path[] =>
    typeof fields === 'object' && fields !== null
      ? Object.keys(fields).map((field) => `${group}.${field}` as Path)
      : [group as Path],
  );
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a run's config changed from its preset, in the mechanism vocabulary where it maps:
 * `watchdog off` when the overrides switch a mechanism off that the preset has on (every
 * field of its switch, lib/mechanisms/mechanisms.ts), `fallback on` for the reverse, and any other
 * changed field as `group.field = value`. An override equal to the preset's value changes
 * nothing and is not listed. The takeover's naive handling is the takeover mechanism off, a
 * verdict on the workspace's own tests the shipped-tests mechanism off, an approval config the
 * tool-approval mechanism on (no preset has one), an MCP client that does not reconnect the
 * mcp-reconnect mechanism off.
 */
export function describeOverrides(config: OverridableConfig): string[] {
  const parsed = PresetIdSchema.safeParse(config.preset ?? 'codesmith');
  const overrides = config.recovery ?? {};
  const lines: string[] = [];
  if (!parsed.success) {
    // A preset this build does not know: the overrides as they were written.
    return pathsOf(overrides).map(
      (path) => `${path} = ${JSON.stringify(at(overrides as RecoveryConfig, path))}`,
    );
  }
  const base = PRESETS[parsed.data];
  const resolved = resolveRecovery(parsed.data, overrides);
  const changed = new Set(pathsOf(overrides).filter((path) => !same(at(resolved, path), at(base, path))));
  const explained = new Set<Path>();
  for (const mechanism of MECHANISM_LIST) {
    if (!('recovery' in mechanism.off)) continue;
    const off = mechanism.off.recovery;
    const paths = pathsOf(off);
    if (paths.length === 0 || !paths.every((path) => changed.has(path))) continue;
    const nowOff = paths.every((path) => same(at(resolved, path), at(off as RecoveryConfig, path)));
    const wasOff = paths.every((path) => same(at(base, path), at(off as RecoveryConfig, path)));
    if (nowOff === wasOff) continue;
    lines.push(`${mechanism.id} ${nowOff ? 'off' : 'on'}`);
    for (const path of paths) explained.add(path);
  }
  for (const path of changed)
    if (!explained.has(path)) lines.push(`${path} = ${JSON.stringify(at(resolved, path))}`);
  const takeover = { ...DEFAULT_TAKEOVER, ...config.takeover };
  if (takeover.naive) lines.push('takeover-handling off');
  if (takeover.foreignThinking !== DEFAULT_TAKEOVER.foreignThinking)
    lines.push(`takeover.foreignThinking = ${JSON.stringify(takeover.foreignThinking)}`);
  // The verdict running the workspace's own copies of the tests is the shipped-tests mechanism off.
  if (config.verdict?.tests === 'workspace') lines.push('shipped-tests off');
  // Tool calls held for approval: the tool-approval mechanism on.
  if (config.pause?.approval) lines.push('tool-approval on');
  if (config.mcp?.recovery.reconnect === false) lines.push('mcp-reconnect off');
  return lines;
}
