import { z } from 'zod';

/**
 * The fields every event has (the log stamps them), and those of an event inside a turn and
 * inside one attempt.
 */
export const base = {
  run_id: z.string(),
  seq: z.number().int().min(0),
  ts: z.number().min(0),
};
export const turn = { ...base, iteration: z.number().int().min(0) };
export const attempt = { ...turn, attempt: z.number().int().min(1) };
