import type { RecoveryOverrides, SweepMechanism } from '@/lib/protocol';

/** The override that switches one mechanism off, whatever the preset says. */
const OFF: Record<SweepMechanism, RecoveryOverrides> = {
  retry: { retry: { enabled: false } },
  watchdog: { watchdog: { enabled: false } },
  fallback: { fallback: { enabled: false } },
  'background-retry': { background: { enabled: false } },
  'safe-executor': { tools: { safeExecutor: false } },
  'loop-guard': { tools: { loopGuard: false } },
  'old-result-compaction': { context: { oldResultCompaction: false } },
};

/**
 * A configuration's overrides with one mechanism switched off on top: the on/off axis of a
 * sweep, so a table row shows what that mechanism is worth under the same faults and seeds.
 */
export function withMechanismOff(overrides: RecoveryOverrides, mechanism: SweepMechanism): RecoveryOverrides {
  const off = OFF[mechanism];
  const merged: Record<string, unknown> = { ...overrides };
  for (const [group, fields] of Object.entries(off)) {
    const current = merged[group];
    merged[group] = typeof current === 'object' && current !== null ? { ...(current as object), ...(fields as object) } : fields;
  }
  return merged as RecoveryOverrides;
}
