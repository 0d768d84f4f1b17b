import type { Vendor } from '@/lib/protocol';
import { VendorRejection } from './rejection';
import { DEFAULT_SIGNING_KEY } from './signature';
import { hasSimulator, simulatorOf } from './simulators';

/** What a strict simulated vendor says of a request body, without generating anything. */
export type ProbeVerdict =
  | { accepted: true }
  | { accepted: false; status: number; type: string; message: string; body: Record<string, unknown> };

/**
 * Validates a rendered request exactly as the simulated vendor would on arrival and returns
 * its verdict: accepted, or its real error (status and body). Undefined for real vendors:
 * Loop Lab does not spend a real vendor's money to show a counterfactual.
 */
export function probeSimRequest(options: {
  vendor: Vendor;
  body: unknown;
  signingKey?: string;
}): ProbeVerdict | undefined {
  if (!hasSimulator(options.vendor)) return undefined;
  const simulator = simulatorOf(options.vendor);
  try {
    simulator.check(JSON.stringify(options.body), options.signingKey ?? DEFAULT_SIGNING_KEY);
    return { accepted: true };
  } catch (error) {
    if (!(error instanceof VendorRejection)) throw error;
    const body = simulator.errorBody(error);
    return { accepted: false, status: error.status, type: error.type, message: error.message, body };
  }
}
