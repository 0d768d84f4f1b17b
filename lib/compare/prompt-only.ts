import type { RunConfig } from '@/lib/protocol';
import { isSimulated, type Vendor } from '@/lib/protocol/vendors';
import { stableJson } from './run-steps';

/** The config fields that are prompt text a model reads and the simulated model does not. */
const PROMPT_FIELDS = {
  system: 'system prompt',
  toolDescriptions: 'tool descriptions',
  promptSet: 'prompt set',
} as const;
type PromptField = keyof typeof PROMPT_FIELDS;

/** Where two runs differ only in prompt text, on simulated vendors: which texts, in words. */
export interface PromptOnlyDifference {
  /** The prompt texts that differ, in words: "system prompt", "tool descriptions", "prompt set". */
  fields: string[];
}

/** What the playground's question reads of a config (a form's request, before parsing fills defaults). */
export interface PromptConfig {
  provider: { vendor: Vendor };
  swaps?: readonly { vendor: Vendor }[] | undefined;
  system?: string | undefined;
  toolDescriptions?: Record<string, string> | undefined;
  promptSet?: unknown;
}

/** Every vendor a config sends model traffic to: its own and every planned swap's. */
function vendorsOf(config: Pick<PromptConfig, 'provider' | 'swaps'>): Vendor[] {
  return [config.provider.vendor, ...(config.swaps ?? []).map((s) => s.vendor)];
}

function withoutPrompts(config: RunConfig): Record<string, unknown> {
  const { system: _system, toolDescriptions: _tools, promptSet: _set, ...rest } = config;
  return rest;
}

/**
 * Do two runs differ only in prompt or tool-description text (the system prompt, the tool
 * descriptions, the prompt set they were loaded from), every vendor they use being simulated?
 * Then nothing between them is a prompt's effect: the simulated model's choices come from the
 * scenario's script and the seed, never from a prompt — only the prompts' own tokens are billed
 * differently. A different task is not prompt text here: the simulated model does read the task.
 * `extraVendors`: vendors a run moved to that its config does not name (a swap by control message).
 * null: they differ in something else too, in nothing, or a real vendor is in play.
 */
export function promptOnlyDifference(
  a: RunConfig,
  b: RunConfig,
  extraVendors: readonly string[] = [],
): PromptOnlyDifference | null {
  // isSimulated compares names: a vendor name it does not know is not simulated.
  if (![...vendorsOf(a), ...vendorsOf(b), ...extraVendors].every((v) => isSimulated(v as Vendor)))
    return null;
  if (stableJson(withoutPrompts(a)) !== stableJson(withoutPrompts(b))) return null;
  const fields = (Object.keys(PROMPT_FIELDS) as PromptField[])
    .filter((f) => stableJson(a[f] ?? null) !== stableJson(b[f] ?? null))
    .map((f) => PROMPT_FIELDS[f]);
  return fields.length > 0 ? { fields } : null;
}

/**
 * The playground's question before a run: does this config set prompt text of its own for a
 * simulated vendor, which will not read it? Returns the texts set, or null (none set, or a
 * real vendor is in play).
 */
export function promptsUnreadBySimulation(config: PromptConfig): PromptOnlyDifference | null {
  if (!vendorsOf(config).every(isSimulated)) return null;
  const fields = (Object.keys(PROMPT_FIELDS) as PromptField[])
    .filter((f) => {
      const v = config[f];
      if (v === undefined || v === null) return false;
      return typeof v === 'string' ? v.trim() !== '' : Object.keys(v).length > 0;
    })
    .map((f) => PROMPT_FIELDS[f]);
  return fields.length > 0 ? { fields } : null;
}
