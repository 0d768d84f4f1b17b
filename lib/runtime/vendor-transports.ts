import type { Clock, Random } from '@/lib/clock';
import type { Vendor } from '@/lib/protocol';
import { createRealVendorFetch } from '@/lib/providers';
import {
  createSimAnthropic,
  createSimDeepSeek,
  createSimOpenAI,
  createSimResponses,
  type Policy,
} from '@/lib/sim';

/**
 * The fetch under each vendor: a simulated vendor (one instance per run, so its request
 * count and signing survive a swap away and back), or for real ones the global fetch to a
 * URL the environment names and a fetch that checks where a request-chosen URL's name
 * resolves (createRealVendorFetch).
 * The first vendor's simulator keeps the `sim` random fork, so a run without swaps draws
 * exactly what it always drew.
 */
export function createVendorTransports(options: {
  clock: Clock;
  random: Random;
  policy: Policy;
  first: Vendor;
  /** Each simulated vendor keeps a prompt cache (off: none, whatever the requests mark). */
  promptCache: boolean;
}): (vendor: Vendor) => typeof fetch {
  const { clock, random, policy, first, promptCache } = options;
  const sims = new Map<Vendor, typeof fetch>();
  let real: typeof fetch | undefined;
  return (vendor) => {
    const cached = sims.get(vendor);
    if (cached) return cached;
    const simOptions = {
      clock,
      random: random.fork(vendor === first ? 'sim' : `sim-${vendor}`),
      policy,
      promptCache,
    };
    let transport: typeof fetch;
    switch (vendor) {
      case 'sim-anthropic':
        transport = createSimAnthropic(simOptions);
        break;
      case 'sim-openai':
        transport = createSimOpenAI(simOptions);
        break;
      case 'sim-deepseek':
        transport = createSimDeepSeek(simOptions);
        break;
      case 'sim-openai-responses':
        transport = createSimResponses(simOptions);
        break;
      default:
        return (real ??= createRealVendorFetch());
    }
    sims.set(vendor, transport);
    return transport;
  };
}
