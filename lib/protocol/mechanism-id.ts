import { z } from 'zod';
import { placeAfter } from '@/lib/mechanisms/module';
import { type MODULE_MECHANISM_IDS, MODULE_PLACES } from '@/lib/mechanisms/modules/about';

/**
 * Ids of the mechanisms a person can switch off on their own (the table with labels, the
 * override and the lesson is lib/mechanisms/mechanisms.ts; a mechanism module's id comes from its
 * folder through lib/mechanisms/modules/about.ts). The ids live here, below everything,
 * so the sweep grid's schema and the lessons share one list.
 */

/** Mechanisms switched off by a recovery override alone (the ones a sweep's on/off axis can use). */
const CORE_RECOVERY_IDS = [
  'retry',
  'classifier',
  'retry-after',
  'one-retry-layer',
  'watchdog',
  'partial-kept',
  'stream-error-cap',
  'fallback',
  'background-retry',
  'loop-guard',
  'failure-budget',
  'safe-executor',
  'arg-repair',
  'output-truncation',
  'prompt-caching',
  'old-result-compaction',
  'proactive-summary',
  'overflow-waterfall',
  'circuit-breaker',
  'reactive-compact',
  'output-escalation',
  'refuse-cut-calls',
] as const;

/** Every recovery mechanism in teaching order: each module's id (lib/mechanisms/<name>/) after the one it names. */
export const RECOVERY_MECHANISM_IDS = placeAfter<string, string>(
  CORE_RECOVERY_IDS,
  MODULE_PLACES,
  (id) => id,
) as unknown as readonly [...typeof CORE_RECOVERY_IDS, ...typeof MODULE_MECHANISM_IDS];

/**
 * Every switchable mechanism: the recovery ones, the takeover handling, the task verdict's
 * shipped tests, tool approval and the MCP client's reconnect (run-config fields).
 */
export const MECHANISM_IDS = [
  ...RECOVERY_MECHANISM_IDS,
  'takeover-handling',
  'shipped-tests',
  'tool-approval',
  'mcp-reconnect',
] as const;

export const RecoveryMechanismIdSchema = z.enum(RECOVERY_MECHANISM_IDS);
export type RecoveryMechanismId = z.infer<typeof RecoveryMechanismIdSchema>;
export const MechanismIdSchema = z.enum(MECHANISM_IDS);
export type MechanismId = z.infer<typeof MechanismIdSchema>;
