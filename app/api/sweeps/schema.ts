import { z } from 'zod';
import { SweepGridSchema } from '@/lib/protocol';

/** POST /api/sweeps: the grid itself (the same document as the CLI's --grid file). */
export const CreateSweepBodySchema = SweepGridSchema;

/** GET /api/sweeps?limit=N */
export const ListSweepsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
