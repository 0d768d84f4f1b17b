import { z } from 'zod';

/**
 * POST /api/lessons/{slug}/play: starts both runs of a lesson on the real clock — the mechanism
 * on, and the same config and seed with it off — and answers with both run ids.
 */
export const PlayLessonBodySchema = z
  .object({
    /** Wall time per unit of run time; absent: the lesson's demo scale. Tests pass a small one. */
    timeScale: z.number().min(0.001).max(10).optional(),
  })
  .strict();
export type PlayLessonBody = z.infer<typeof PlayLessonBodySchema>;

export const PlayedLessonSchema = z
  .object({
    slug: z.string(),
    /** The run with the mechanism on. */
    on: z.string(),
    /** The same config and seed with the mechanism switched off. */
    off: z.string(),
    timeScale: z.number(),
    /** A forked lesson: the stored run both sides were forked from, made by the play. */
    parent: z.string().optional(),
  })
  .strict();
export type PlayedLesson = z.infer<typeof PlayedLessonSchema>;
