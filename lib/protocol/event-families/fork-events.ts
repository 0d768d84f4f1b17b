import { z } from 'zod';
import { DeciderSchema } from '../pause';
import { turn } from './fields';

/**
 * A change a person made to the state a fork starts from (lib/protocol/fork.ts `edits`): written
 * once per edit after the copied turns, before the fork's first request, with what stood there
 * before and what stands now. Rebuilding the trajectory from the log applies it again
 * (lib/trajectory/fork-edits.ts), so a fork of this fork and a replay see the edited state.
 * `iteration` is the turn the fork starts after.
 */
export const ForkEditEventSchema = z.object({
  ...turn,
  event: z.literal('fork_edit'),
  /** What was edited: a tool call's result, a message's text, or a request parameter. */
  target: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('tool_result'),
      call_id: z.string(),
      tool: z.string(),
      /** The turn whose tool call it was. */
      turn: z.number().int().min(1),
    }),
    z.object({
      kind: z.literal('message'),
      /** The turn that added the message (0: the task). */
      turn: z.number().int().min(0),
      role: z.enum(['user', 'assistant']),
    }),
    z.object({ kind: z.literal('params'), field: z.literal('maxOutputTokens') }),
  ]),
  /** What stood there (a parameter: the value in force, the preset's when the config left it). */
  before: z.union([z.string(), z.number()]),
  after: z.union([z.string(), z.number()]),
  /** A tool result's error flag before and after (the model reads it with the content). */
  before_is_error: z.boolean().optional(),
  after_is_error: z.boolean().optional(),
  /** Who edited. */
  by: DeciderSchema,
  /** Where, in words: "the result of read_file (call t3) at turn 3". */
  where: z.string(),
  /** What happens next, in a sentence. */
  next: z.string(),
});
