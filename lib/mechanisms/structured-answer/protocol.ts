import { z } from 'zod';
import { turn } from '@/lib/protocol/event-families/fields';
import { MAX_REASKS } from './defaults';

export { ID } from './defaults';

/** Its config: two optional fields of the recovery config's tools group (absent: ./defaults.ts). */
export const TOOLS_CONFIG = {
  /** An answer that is not valid JSON, or does not match the schema, goes through jsonrepair and coercion. */
  answerRepair: z.boolean().optional(),
  /** Re-asks naming the validation errors, once the repairs cannot make the answer match (0: none). */
  answerReasks: z.number().int().min(0).max(MAX_REASKS).optional(),
};

/** As a recorded config is parsed: the same (absent in every log recorded before it). */
export const TOOLS_CONFIG_RECORDED = TOOLS_CONFIG;

/** One rung of the repair ladder as it was tried on the answer. */
export const AnswerRungSchema = z.object({
  rung: z.enum(['parse', 'jsonrepair', 'schema', 'coerce']),
  ok: z.boolean(),
  /** What it found or changed, in words. */
  detail: z.string(),
});

/**
 * The model's answer to a run that requires a JSON Schema (the run config's `answer`), checked
 * against it. Written by the structured-answer mechanism after each answer: the repair ladder's
 * rungs as tried, the errors left, and what happens next — the answer is accepted (as it came
 * or repaired), the model is asked again naming the errors, or the run ends with the answer as
 * it is (repair off, re-asks spent, a refusal).
 */
export const StructuredAnswerEventSchema = z.object({
  ...turn,
  event: z.literal('structured_answer'),
  /** valid: it matched as it came; repaired: it matched after the ladder; invalid: it does not match; refused: the model declined. */
  outcome: z.enum(['valid', 'repaired', 'invalid', 'refused']),
  ladder: z.array(AnswerRungSchema),
  /** The validation errors left (path: message), at most 20. */
  errors: z.array(z.string()),
  /** The answer the run hands on (as it came, or repaired): only when it matches. */
  value: z.unknown().optional(),
  /** Re-asks made so far, this one included, and the budget. */
  reasks: z.number().int().min(0),
  max_reasks: z.number().int().min(0),
  /** accept: the run ends with this answer; reask: the errors go back to the model; run_ends: the run ends with an answer that does not match. */
  next: z.enum(['accept', 'reask', 'run_ends']),
  /** The decision in words, written where it was made. */
  why: z.string(),
});

/** The events this mechanism writes. */
export const EVENTS = [StructuredAnswerEventSchema] as const;
