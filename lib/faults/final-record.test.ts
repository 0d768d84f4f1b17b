import { describe, expect, it } from 'vitest';
import { isFinalRecord } from './final-record';

describe('isFinalRecord: the record that carries the stop reason', () => {
  it('Anthropic message_delta is final; content and message_stop are not', () => {
    expect(
      isFinalRecord(
        '{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}',
      ),
    ).toBe(true);
    expect(
      isFinalRecord('{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"hi"}}'),
    ).toBe(false);
    expect(isFinalRecord('{"type":"message_stop"}')).toBe(false);
    expect(isFinalRecord('{"type": "ping"}')).toBe(false);
  });

  it('OpenAI Chat: the chunk with a finish_reason, not the usage chunk or [DONE]', () => {
    expect(
      isFinalRecord(
        '{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
      ),
    ).toBe(true);
    expect(
      isFinalRecord(
        '{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]}',
      ),
    ).toBe(false);
    expect(isFinalRecord('{"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":1}}')).toBe(
      false,
    );
    expect(isFinalRecord('[DONE]')).toBe(false);
  });

  it('OpenAI Responses: completed or incomplete', () => {
    expect(isFinalRecord('{"type":"response.completed","response":{}}')).toBe(true);
    expect(isFinalRecord('{"type":"response.incomplete","response":{}}')).toBe(true);
    expect(isFinalRecord('{"type":"response.output_text.delta","delta":"x"}')).toBe(false);
  });

  it('is false for anything unparsable', () => {
    expect(isFinalRecord(undefined)).toBe(false);
    expect(isFinalRecord('{"type":"message_delta"')).toBe(false);
  });
});
