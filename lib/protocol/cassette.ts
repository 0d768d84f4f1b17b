import { z } from 'zod';
export { missingConfigText } from './cassette-words';
import { ClockKindSchema, RunConfigSchema, VendorSchema } from './config';

/**
 * A cassette: a run's model traffic as it crossed the wire, beneath the SDK and beneath the
 * fault wrapper — each request as sent (credentials removed, headers allow-listed) and the
 * response as received (status, allow-listed headers, the body's bytes in the chunks they
 * arrived in and the run time between them). Replayed as a vendor (lib/cassettes), it serves
 * the same bytes through the same SDK, on the run clock.
 */
export const CASSETTE_FORMAT = 'loop-lab-cassette';
/** 2: the cassette keeps the run config it was recorded with (`config`); 1: it does not (still read). */
export const CASSETTE_VERSION = 2;
export const CASSETTE_VERSIONS = [1, 2] as const;

/** The request headers a cassette keeps; every other header (authorization, x-api-key, cookies, …) is dropped. */
export const CASSETTE_REQUEST_HEADERS: readonly string[] = [
  'content-type',
  'accept',
  'anthropic-version',
  'anthropic-beta',
  'openai-beta',
];

/** The response headers a cassette keeps: what the SDKs and the recovery ladder read. */
export const CASSETTE_RESPONSE_HEADERS: readonly string[] = [
  'content-type',
  'retry-after',
  'retry-after-ms',
  'x-should-retry',
  'request-id',
  'x-request-id',
  'anthropic-ratelimit-requests-limit',
  'anthropic-ratelimit-requests-remaining',
  'anthropic-ratelimit-input-tokens-limit',
  'anthropic-ratelimit-input-tokens-remaining',
  'anthropic-ratelimit-output-tokens-limit',
  'anthropic-ratelimit-output-tokens-remaining',
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-limit-tokens',
  'x-ratelimit-remaining-tokens',
];

/** At most this many exchanges in one cassette (a run's attempt budget is at most 10,000; a recording stops keeping at this). */
export const MAX_CASSETTE_EXCHANGES = 2_000;

const HeadersSchema = z.record(z.string().max(100), z.string().max(4_000));

/** One read from the response body: its bytes (UTF-8 text when they decode losslessly, else base64) and the run time since the read before. */
export const CassetteChunkSchema = z
  .object({
    /** Run-clock ms since the previous chunk (the first chunk: since the headers arrived). */
    after_ms: z.number().min(0).max(86_400_000),
    text: z.string().optional(),
    base64: z.string().optional(),
  })
  .strict()
  .refine((c) => (c.text === undefined) !== (c.base64 === undefined), 'a chunk holds either text or base64');
export type CassetteChunk = z.infer<typeof CassetteChunkSchema>;

export const CassetteResponseSchema = z
  .object({
    status: z.number().int().min(100).max(599),
    headers: HeadersSchema,
    /** Run-clock ms from the request to the response headers. */
    after_ms: z.number().min(0).max(86_400_000),
    chunks: z.array(CassetteChunkSchema).max(100_000),
    /**
     * How the body ended: complete (the server closed it), error (the connection failed; replayed
     * as the same failure), cut (the client stopped reading — a stall its watchdog cut, an abort;
     * replayed as a body that sends nothing more until the client gives up).
     */
    end: z.enum(['complete', 'error', 'cut']),
    /** What the failure said, for end: error. */
    error: z.string().max(2_000).optional(),
  })
  .strict();
export type CassetteResponse = z.infer<typeof CassetteResponseSchema>;

export const CassetteExchangeSchema = z
  .object({
    /** The request's number in the recorded run (the fault wrapper's count, as in `fault_injected`). */
    n: z.number().int().min(1),
    /** The vendor the request went to and the wire dialect it spoke. */
    vendor: VendorSchema,
    dialect: z.string().min(1).max(40),
    request: z
      .object({
        method: z.string().max(10),
        /** The URL's path only: no host, no query (a query can carry a key). */
        path: z.string().max(2_000),
        headers: HeadersSchema,
        /** The dialect request body as sent, with every key the run knew removed. */
        body: z.string(),
      })
      .strict(),
    /** The response, or absent when the request never got one (`failure` says why). */
    response: CassetteResponseSchema.optional(),
    /** The fetch itself failed (connection refused, DNS, …): its message, replayed as the same failure. */
    failure: z.string().max(2_000).optional(),
  })
  .strict();
export type CassetteExchange = z.infer<typeof CassetteExchangeSchema>;

export const CassetteSchema = z
  .object({
    format: z.literal(CASSETTE_FORMAT),
    version: z.union([z.literal(1), z.literal(2)]),
    /**
     * Where the traffic came from: `simulated` — one of Loop Lab's strict simulated vendors (real
     * wire formats, a scripted model: it does not read the prompt); `recorded` — a real endpoint.
     */
    source: z
      .object({
        kind: z.enum(['simulated', 'recorded']),
        vendor: VendorSchema,
        model: z.string().max(200),
        /** What was recorded, in words (the scenario, the preset, the faults). */
        note: z.string().max(2_000),
      })
      .strict(),
    /** When the recording ended (ISO 8601); absent in the shipped cassettes, which a script rebuilds. */
    recorded_at: z.string().max(40).optional(),
    /** The recording's clock: its gaps are run-clock ms (virtual, paced: simulated time). */
    clock: ClockKindSchema,
    /**
     * The run config the traffic was recorded with (its keys removed): the scenario, task, prompts,
     * preset, seed and clock that made these requests, and the faults that were on top (not in the
     * recording). A replay asks the same questions only with the same task and prompts, so picking
     * a cassette fills them in. Absent in a version 1 file, which does not say what it was
     * recorded with.
     */
    config: RunConfigSchema.optional(),
    /** The recording stopped keeping exchanges at MAX_CASSETTE_EXCHANGES or its size bound; the rest of the run is not in it. */
    truncated: z.boolean().optional(),
    exchanges: z.array(CassetteExchangeSchema).max(MAX_CASSETTE_EXCHANGES),
  })
  .strict();
export type Cassette = z.infer<typeof CassetteSchema>;
