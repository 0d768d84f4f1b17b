import { describe, expect, it } from 'vitest';
import { contentKindOf } from './content-kind';

describe('contentKindOf', () => {
  it('names the content a delta carries in either dialect', () => {
    expect(
      contentKindOf(
        '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}}',
      ),
    ).toBe('thinking');
    expect(
      contentKindOf('{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"hi"}}'),
    ).toBe('text');
    expect(
      contentKindOf(
        '{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"a\\""}}',
      ),
    ).toBe('tool_args');
    expect(contentKindOf('{"choices":[{"index":0,"delta":{"reasoning_content":"hm"}}]}')).toBe('thinking');
    expect(
      contentKindOf(
        '{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{"}}]}}]}',
      ),
    ).toBe('tool_args');
    expect(contentKindOf('{"type":"response.output_text.delta","delta":"x"}')).toBe('text');
  });

  it('an empty piece carries no content: not the tool call’s opening `partial_json: ""`, not an empty text or arguments', () => {
    expect(
      contentKindOf(
        '{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}',
      ),
    ).toBeUndefined();
    expect(
      contentKindOf('{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":""}}'),
    ).toBeUndefined();
    expect(
      contentKindOf('{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}'),
    ).toBeUndefined();
    expect(
      contentKindOf(
        '{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":""}}]}}]}',
      ),
    ).toBeUndefined();
  });
});
