import { z } from 'zod';
import { CassetteResponseSchema } from '../cassette';

/** One request's wire as GET /api/runs/{id}/wire answers it (lib/protocol/wire.ts says what is in it). */
export const WireExchangeSchema = z
  .object({
    n: z.number().int().min(1),
    vendor: z.string(),
    dialect: z.string(),
    at_ms: z.number().min(0),
    request: z
      .object({
        method: z.string(),
        url: z.string(),
        headers: z.record(z.string(), z.string()),
        body: z.string(),
      })
      .strict(),
    response: CassetteResponseSchema.optional(),
    failure: z.string().optional(),
  })
  .strict();

/** GET /api/runs/{id}/wire: the run's kept requests by number, and the bound they were kept within. */
export const RunWireSchema = z
  .object({
    run_id: z.string(),
    /** The run is still running: its later requests are kept as their responses end. */
    live: z.boolean(),
    /** The most wire the run keeps, in bytes (MAX_WIRE_BYTES_PER_RUN). */
    max_bytes: z.number().int(),
    requests: z.array(
      z
        .object({
          n: z.number().int().min(1),
          exchange: WireExchangeSchema.optional(),
          omitted: z.string().optional(),
        })
        .strict(),
    ),
  })
  .strict();
export type RunWire = z.infer<typeof RunWireSchema>;
