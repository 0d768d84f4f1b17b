import type { Vendor } from '@/lib/protocol';

/**
 * Whether "Swap to…" would hand the run to the vendor and model already answering it: such a
 * swap changes nothing, yet would be drawn as a takeover. `current` is "vendor/model" as the
 * run header shows it. An OpenAI-compatible target is never "the same": its base URL or key
 * may differ while the names match.
 */
export function isCurrentTarget(current: string | undefined, vendor: Vendor, model: string): boolean {
  if (current === undefined || vendor === 'openai-compatible') return false;
  return current === `${vendor}/${model.trim()}`;
}
