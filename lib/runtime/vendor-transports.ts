import type { Clock, Random } from '@/lib/clock';
import type { Vendor } from '@/lib/protocol';
import { createSimAnthropic, createSimDeepSeek, createSimOpenAI, type Policy } from '@/lib/sim';

/**
 * The fetch under each vendor: a simulated vendor (one instance per run, so its request
 * count and signing survive a swap away and back), or the global fetch for real ones.
 * The first vendor's simulator keeps the `sim` random fork, so a run without swaps draws
 * exactly what it always drew.
 */
export function createVendorTransports(options: { clock: Clock; random: Random; policy: Policy; first: Vendor }): (vendor: Vendor) => typeof fetch {
  const { clock, random, policy, first } = options;
  const sims = new Map<Vendor, typeof fetch>();
  return (vendor) => {
    const cached = sims.get(vendor);
    if (cached) return cached;
    const simOptions = { clock, random: random.fork(vendor === first ? 'sim' : `sim-${vendor}`), policy };
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
      default:
        return globalThis.fetch;
    }
    sims.set(vendor, transport);
    return transport;
  };
}
