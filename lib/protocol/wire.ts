import type { CassetteResponse } from './cassette';

/**
 * The wire of one HTTP request of a run, as the SDK saw it: recorded just beneath the SDK and
 * above the fault wrapper (lib/cassettes/record-exchanges.ts, `recordWire`), so an injected 429
 * or a stream cut by a fault is here as the SDK received it. Zod-free: the run page reads it.
 *
 * The request keeps every header the SDK set, with the value of each header that carries a key
 * (WIRE_KEY_HEADERS) replaced by WIRE_KEY_PLACEHOLDER and every other value, the URL and the body
 * put through the run's redaction; the response keeps every header, the body's bytes in the reads
 * they arrived in and the run-clock time between them (the cassette's response shape).
 */
export interface WireExchange {
  /** The request's number in the run (the fault wrapper's count, as in `model_request` and `fault_injected`). */
  n: number;
  /** The vendor in force and the wire dialect it spoke. */
  vendor: string;
  dialect: string;
  /** Run-clock ms at which the SDK sent the request. */
  at_ms: number;
  request: {
    method: string;
    /** The URL as the SDK sent it (credentials in it removed, the rest redacted). */
    url: string;
    headers: Record<string, string>;
    /** The body as the SDK sent it, with every key the run knew removed. */
    body: string;
  };
  /** The response as the SDK received it (faults included); absent when the request got none (`failure`). */
  response?: CassetteResponse;
  /** The fetch itself failed (connection refused, an injected drop before headers, an abort): its message. */
  failure?: string;
}

/** One request's wire as stored: the exchange, or why it was not kept. */
export interface StoredWire {
  n: number;
  exchange?: WireExchange;
  /** Why the exchange was not kept (the run's wire passed its size bound). */
  omitted?: string;
}

/** Request headers whose value is a credential: kept by name, their value replaced by the placeholder. */
export const WIRE_KEY_HEADERS: readonly string[] = [
  'authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
];

/** What stands in for a key in a kept header (`authorization: Bearer [key]`). */
export const WIRE_KEY_PLACEHOLDER = '[key]';

/**
 * The most wire one run keeps in the store, in bytes of JSON: requests past it are kept by number
 * only, with the reason. A long run's requests each repeat its whole history, so the bound is met
 * by long runs; their first requests stay viewable.
 */
export const MAX_WIRE_BYTES_PER_RUN = 4 * 1024 * 1024;
