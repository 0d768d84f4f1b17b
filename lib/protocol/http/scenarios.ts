import { z } from 'zod';

/** A tool as the model is shown it: the playground lets a person replace each description. */
export const ScenarioToolSchema = z.object({ name: z.string(), description: z.string() }).strict();

/** One entry of GET /api/scenarios, for pickers: no files, no check code. */
export const ScenarioInfoSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    summary: z.string(),
    task: z.string(),
    tools: z.array(ScenarioToolSchema),
  })
  .strict();
export type ScenarioInfo = z.infer<typeof ScenarioInfoSchema>;

export const ScenarioListSchema = z.array(ScenarioInfoSchema);
