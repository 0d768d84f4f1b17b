import { isSimulated, type RunConfig } from '@/lib/protocol';
import type { VendorTarget } from './bind-vendor';

/**
 * A replayed run's first binding: the recorded vendor's SDK and dialect, with a stand-in key and
 * address the SDK needs to build a request. The request never leaves: the cassette player answers
 * it (lib/cassettes), so no key is asked for and none is sent anywhere.
 */
export const REPLAY_KEY = 'cassette-replay';
const REPLAY_BASE_URL = 'https://cassette.invalid/v1';

export function replayTarget(config: RunConfig): VendorTarget {
  const { vendor, model, baseUrl } = config.provider;
  if (isSimulated(vendor)) return { vendor, model };
  return { vendor, model, baseUrl: baseUrl ?? REPLAY_BASE_URL, apiKey: REPLAY_KEY };
}
