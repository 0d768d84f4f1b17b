import { z } from 'zod';
import { ToolNameSchema } from '../config';
import { DisplayNameSchema } from '../display-name';

/**
 * A named prompt set: the texts a prompt experiment changes (system prompt, optional task,
 * tool descriptions). Saving under a name that exists makes its next version; versions are
 * never edited, so a run that names one can always be traced back to the exact texts.
 */
export const SavePromptSetBodySchema = z
  .object({
    name: DisplayNameSchema,
    /** '' = the built-in system prompt. */
    system: z.string().max(20_000).default(''),
    /** '' = the scenario's own task. */
    task: z.string().max(20_000).default(''),
    toolDescriptions: z.record(ToolNameSchema, z.string().trim().min(1).max(4_000)).default({}),
  })
  .strict();
export type SavePromptSetBody = z.infer<typeof SavePromptSetBodySchema>;
export type SavePromptSetInput = z.input<typeof SavePromptSetBodySchema>;

export const PromptSetSchema = SavePromptSetBodySchema.extend({
  version: z.number().int().min(1),
  /** ISO 8601. */
  created_at: z.string(),
});
export type PromptSet = z.infer<typeof PromptSetSchema>;

/** GET /api/prompt-sets: every version of every set, newest first. */
export const PromptSetListSchema = z.array(PromptSetSchema);
