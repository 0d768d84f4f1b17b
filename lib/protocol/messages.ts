import { z } from 'zod';

/**
 * The neutral trajectory format. A message is stored in no vendor's
 * format: rendering to a vendor happens at request time in lib/trajectory.
 */

/** Who minted an opaque reasoning credential; it may only travel back to them. */
export const CredentialSchema = z.object({
  vendor: z.string(),
  model: z.string(),
  signature: z.string(),
  /** The vendor's id of the item the credential came in (a Responses reasoning item, `rs_…`). */
  item: z.string().optional(),
});
export type Credential = z.infer<typeof CredentialSchema>;

export const TextPartSchema = z.object({ type: z.literal('text'), text: z.string() });
export const ThinkingPartSchema = z.object({
  type: z.literal('thinking'),
  /** Portable text of the reasoning (may be empty when the vendor omitted it). */
  text: z.string(),
  credential: CredentialSchema.optional(),
  /**
   * Who wrote the text. Reasoning without a credential (DeepSeek's reasoning_content) has
   * only this to say whether it is the target's own on a switch; absent: unknown, foreign.
   */
  origin: z.object({ vendor: z.string(), model: z.string() }).optional(),
});
export const RedactedThinkingPartSchema = z.object({
  type: z.literal('redacted_thinking'),
  data: z.string(),
  vendor: z.string(),
  model: z.string(),
});
export const ToolCallPartSchema = z.object({
  type: z.literal('tool_call'),
  id: z.string(),
  name: z.string(),
  /** The argument text exactly as the model produced it (it may not parse). */
  argsText: z.string(),
  /** The parsed arguments, present only when argsText parsed as a JSON object. */
  args: z.record(z.string(), z.unknown()).optional(),
});
export const ToolResultPartSchema = z.object({
  type: z.literal('tool_result'),
  callId: z.string(),
  content: z.string(),
  isError: z.boolean(),
});

export const PartSchema = z.discriminatedUnion('type', [
  TextPartSchema,
  ThinkingPartSchema,
  RedactedThinkingPartSchema,
  ToolCallPartSchema,
  ToolResultPartSchema,
]);
export type Part = z.infer<typeof PartSchema>;
export type TextPart = z.infer<typeof TextPartSchema>;
export type ThinkingPart = z.infer<typeof ThinkingPartSchema>;
export type RedactedThinkingPart = z.infer<typeof RedactedThinkingPartSchema>;
export type ToolCallPart = z.infer<typeof ToolCallPartSchema>;
export type ToolResultPart = z.infer<typeof ToolResultPartSchema>;

export const MessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  parts: z.array(PartSchema),
});
export type Message = z.infer<typeof MessageSchema>;

/** Why a model response ended, in vendor-neutral terms. */
export const StopReasonSchema = z.enum([
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'refusal',
  'context_window',
  'pause',
  'incomplete',
  'other',
]);
export type StopReason = z.infer<typeof StopReasonSchema>;
