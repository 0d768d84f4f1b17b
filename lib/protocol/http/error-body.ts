import { z } from 'zod';

/** The body of every error response (4xx and 5xx): what went wrong, and one line per bad field or line. */
export const ErrorBodySchema = z
  .object({
    error: z.string(),
    details: z.array(z.string()).optional(),
    /** A 429 of room mode: which fair-share limit, its value, and when to try again (also Retry-After). */
    limit: z
      .object({
        name: z.enum(['liveRuns', 'runsPerMinute', 'sweepRuns']),
        variable: z.string(),
        value: z.number().int(),
        retryAfterSeconds: z.number().int().nonnegative().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** 201 from every POST that creates something (a run, an import, a sweep); Location points at it. */
export const CreatedSchema = z.object({ id: z.string().min(1) }).strict();
export type Created = z.infer<typeof CreatedSchema>;
