import { needsBaseUrl, type Vendor } from '@/lib/protocol/vendors';

/**
 * Whether "Swap to…" would hand the run to the vendor and model already answering it: such a
 * swap changes nothing, yet would be drawn as a takeover. `current` is "vendor/model" as the
 * run header shows it. A target without an address of its own (an OpenAI-compatible server) is
 * never "the same": its base URL or key may differ while the names match.
 */
export function isCurrentTarget(current: string | undefined, vendor: Vendor, model: string): boolean {
  if (current === undefined || needsBaseUrl(vendor)) return false;
  return current === `${vendor}/${model.trim()}`;
}
