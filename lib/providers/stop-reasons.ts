import type { StopReason } from '@/lib/protocol';

const ANTHROPIC = new Map<string, StopReason>([
  ['end_turn', 'end_turn'],
  ['tool_use', 'tool_use'],
  ['max_tokens', 'max_tokens'],
  ['stop_sequence', 'stop_sequence'],
  ['refusal', 'refusal'],
  ['model_context_window_exceeded', 'context_window'],
  ['pause_turn', 'pause'],
]);

const OPENAI = new Map<string, StopReason>([
  ['stop', 'end_turn'],
  ['tool_calls', 'tool_use'],
  ['function_call', 'tool_use'],
  ['length', 'max_tokens'],
  ['content_filter', 'refusal'],
]);

/** Vendors add stop reasons over time; an unknown one is 'other', never a guess. */
export function mapAnthropicStopReason(options: { stopReason: string }): StopReason {
  return ANTHROPIC.get(options.stopReason) ?? 'other';
}

export function mapOpenAIFinishReason(options: { finishReason: string }): StopReason {
  return OPENAI.get(options.finishReason) ?? 'other';
}
