import { z } from 'zod';

/** GET /api/sweeps/:id/runs?key=config|scenario|faultPlan|vendor (omit key for every run). */
export const SweepRunsQuerySchema = z.object({
  key: z.string().min(1).max(400).optional(),
});
