import { toolFaultLabel, type PromptSetRef, type RunConfig } from '@/lib/protocol';
import { describeOverrides } from '@/lib/mechanisms/describe-overrides';

/** What a run's list row shows of the config that made it (lib/store RunSummary). */
export interface ConfigColumns {
  preset: string;
  /** What the config changed from its preset (lib/mechanisms/describe-overrides.ts). */
  overrides: string[];
  seed: number | null;
  /** One label per enabled fault: a rule's label (or id), a tool fault as the run page names it ("tools throw (every tool)"). */
  faults: string[];
  prompt_set: PromptSetRef | null;
}

/**
 * Reads the list columns from a stored config without re-validating it: a run stored by an
 * older build still lists (missing fields read as empty), and listing stays cheap.
 */
export function configColumns(stored: string): ConfigColumns {
  let config: Partial<RunConfig>;
  try {
    config = JSON.parse(stored) as Partial<RunConfig>;
  } catch {
    return { preset: '', overrides: [], seed: null, faults: [], prompt_set: null };
  }
  const rules = (config.faults?.rules ?? []).filter((r) => r.enabled !== false).map((r) => r.label ?? r.id);
  const tools = (config.faults?.tools ?? []).filter((t) => t.enabled !== false).map(toolFaultLabel);
  return {
    preset: typeof config.preset === 'string' ? config.preset : '',
    overrides: describeOverrides(config),
    seed: typeof config.seed === 'number' ? config.seed : null,
    faults: [...rules, ...tools],
    prompt_set: config.promptSet ?? null,
  };
}
