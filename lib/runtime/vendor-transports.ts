import type { Clock, Random } from '@/lib/clock';
import { isSimulated, type Vendor } from '@/lib/protocol';
import { createRealVendorFetch } from '@/lib/providers';
import { simulatorOf, type Policy } from '@/lib/sim';

/**
 * The fetch under each vendor: for a simulated row, the simulator lib/sim registers under its id
 * (one instance per run, so its request count and signing survive a swap away and back), or for real ones the global fetch to a
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
    if (!isSimulated(vendor)) return (real ??= createRealVendorFetch());
    const transport = simulatorOf(vendor).create({
      clock,
      random: random.fork(vendor === first ? 'sim' : `sim-${vendor}`),
      policy,
      promptCache,
    });
    sims.set(vendor, transport);
    return transport;
  };
}
