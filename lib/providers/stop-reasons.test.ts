import { describe, expect, it } from 'vitest';
import { mapAnthropicStopReason, mapOpenAIFinishReason } from './stop-reasons';

describe('stop reason mapping', () => {
  it('maps every Anthropic stop reason and never guesses an unknown one', () => {
    const cases = {
      end_turn: 'end_turn',
      tool_use: 'tool_use',
      max_tokens: 'max_tokens',
      stop_sequence: 'stop_sequence',
      refusal: 'refusal',
      model_context_window_exceeded: 'context_window',
      pause_turn: 'pause',
      constructor: 'other',
      brand_new_reason: 'other',
    };
    for (const [stopReason, expected] of Object.entries(cases)) {
      expect(mapAnthropicStopReason({ stopReason })).toBe(expected);
    }
  });

  it('maps OpenAI finish reasons', () => {
    expect(mapOpenAIFinishReason({ finishReason: 'stop' })).toBe('end_turn');
    expect(mapOpenAIFinishReason({ finishReason: 'tool_calls' })).toBe('tool_use');
    expect(mapOpenAIFinishReason({ finishReason: 'length' })).toBe('max_tokens');
    expect(mapOpenAIFinishReason({ finishReason: 'content_filter' })).toBe('refusal');
    expect(mapOpenAIFinishReason({ finishReason: 'toString' })).toBe('other');
  });
});
