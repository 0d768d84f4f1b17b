import type { Vendor } from '@/lib/protocol';
import { checkAnthropicRequest } from './anthropic/check-request';
import { anthropicErrorBody } from './anthropic/errors';
import { createSimAnthropic } from './anthropic/sim-anthropic';
import { checkOpenAIRequest } from './openai/check-request';
import { openaiErrorBody } from './openai/errors';
import { createSimDeepSeek, createSimOpenAI } from './openai/sim-openai';
import type { VendorRejection } from './rejection';
import { checkResponsesRequest } from './responses/check-request';
import { createSimResponses } from './responses/sim-responses';
import type { SimVendorOptions } from './types';

/**
 * A simulated vendor: the fetch it answers as, and how it judges a request body without
 * generating anything (the swap suggestions and the takeover probe ask it).
 */
export interface Simulator {
  /** The id of its row in the vendor table (lib/protocol/vendors.ts), which says it is simulated. */
  vendor: Vendor;
  create(options: SimVendorOptions): typeof fetch;
  /** Throws a VendorRejection as the vendor would on arrival; returns when it would accept the body. */
  check(body: string, signingKey: string): void;
  /** The vendor's error body for a rejection. */
  errorBody(rejection: VendorRejection): Record<string, unknown>;
}

const simulators = new Map<Vendor, Simulator>();

/** Adds a simulator under its vendor's id; returns what removes it again (for a test's fixture). */
export function registerSimulator(simulator: Simulator): () => void {
  if (simulators.has(simulator.vendor))
    throw new Error(`a simulator for "${simulator.vendor}" is already registered`);
  simulators.set(simulator.vendor, simulator);
  return () => {
    if (simulators.get(simulator.vendor) === simulator) simulators.delete(simulator.vendor);
  };
}

/** The simulator of a simulated vendor; throws naming the vendor when none is registered. */
export function simulatorOf(vendor: Vendor): Simulator {
  const simulator = simulators.get(vendor);
  if (!simulator) {
    throw new Error(
      `no simulator registered for vendor "${vendor}" (the simulated ones are ${[...simulators.keys()].join(', ')})`,
    );
  }
  return simulator;
}

/** Whether a vendor has a simulator (a real vendor has none). */
export function hasSimulator(vendor: Vendor): boolean {
  return simulators.has(vendor);
}

const openaiError = (rejection: VendorRejection) => openaiErrorBody({ rejection });

for (const simulator of [
  {
    vendor: 'sim-anthropic',
    create: createSimAnthropic,
    check: (body, signingKey) => checkAnthropicRequest({ body, signingKey }),
    errorBody: (rejection) => anthropicErrorBody({ rejection, requestId: 'req_probe' }),
  },
  {
    vendor: 'sim-openai',
    create: createSimOpenAI,
    check: (body) => checkOpenAIRequest({ body, flavor: 'openai' }),
    errorBody: openaiError,
  },
  {
    vendor: 'sim-deepseek',
    create: createSimDeepSeek,
    check: (body) => checkOpenAIRequest({ body, flavor: 'deepseek' }),
    errorBody: openaiError,
  },
  {
    vendor: 'sim-openai-responses',
    create: createSimResponses,
    // Without the run's store every previous_response_id is unknown: the probe judges a body by value.
    check: (body) => checkResponsesRequest({ body }),
    errorBody: openaiError,
  },
] satisfies Simulator[]) {
  registerSimulator(simulator);
}
