import { z } from 'zod';
import { RunConfigSchema } from '@/lib/protocol';

/** POST /api/runs: a config, and a key for this run only when the browser supplies one. */
export const CreateRunBodySchema = z
  .object({
    config: RunConfigSchema,
    apiKey: z.string().trim().min(1, 'an empty key: leave apiKey out to use the server environment').max(1000).optional(),
  })
  .strict();
export type CreateRunBody = z.infer<typeof CreateRunBodySchema>;

/** GET /api/runs?limit=N */
export const ListRunsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
