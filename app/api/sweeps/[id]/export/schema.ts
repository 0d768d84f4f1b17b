import { z } from 'zod';

/** GET /api/sweeps/:id/export?format=json|csv&what=table|runs (JSON always holds both). */
export const SweepExportQuerySchema = z.object({
  format: z.enum(['json', 'csv']).default('json'),
  what: z.enum(['table', 'runs']).default('table'),
});
