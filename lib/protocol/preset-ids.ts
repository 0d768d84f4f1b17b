import type { CompactionConfig } from './recovery';

/** The recovery presets, without a schema (recovery.ts builds PresetIdSchema from this list). */
export const PRESET_IDS = ['codesmith', 's11', 'course', 'naive', 'sdk-default'] as const;
export type PresetId = (typeof PRESET_IDS)[number];
/** The preset a run config that names none runs. */
export const DEFAULT_PRESET: PresetId = 'codesmith';

/** A string the page read from a select, as a preset (undefined: it names none). */
export function asPresetId(value: string): PresetId | undefined {
  return (PRESET_IDS as readonly string[]).includes(value) ? (value as PresetId) : undefined;
}

/** Every context-channel mechanism off: what a run recorded before the channel existed did. */
export const COMPACTION_OFF: CompactionConfig = {
  proactive: false,
  thresholdRatio: 0.75,
  keepRecentMessages: 4,
  summaryMaxTokens: 1_024,
  waterfall: false,
  waterfallBudget: 2,
  trimFloor: 4,
  breaker: false,
  breakerFailures: 3,
  breakerCooldownMs: 300_000,
  reactive: false,
  reactiveKeepMessages: 5,
};
