import { describe, expect, it } from 'vitest';
import { curlFor } from './curl';

describe('curlFor', () => {
  it('addresses the endpoint the body went to with its dialect’s headers and the key as a variable', () => {
    const curl = curlFor({
      vendor: 'sim-anthropic',
      model: 'm',
      url: 'http://sim.anthropic.local/v1/messages',
      chars: 10,
      body: { model: 'm', text: "it's" },
    })!;
    expect(curl.split('\n').slice(0, 5)).toEqual([
      "curl 'http://sim.anthropic.local/v1/messages' \\",
      '  -H "x-api-key: $ANTHROPIC_API_KEY" \\',
      '  -H "anthropic-version: 2023-06-01" \\',
      '  -H "content-type: application/json" \\',
      "  --data-binary @- <<'JSON'",
    ]);
    // The body is the one sent, unexpanded by the shell.
    expect(JSON.parse(curl.split('\n').slice(5, -1).join('\n'))).toEqual({ model: 'm', text: "it's" });
    expect(curl.endsWith('\nJSON')).toBe(true);
  });

  it('uses a bearer key for the OpenAI-style dialects, a fence the body cannot end, and nothing for a body not kept', () => {
    const curl = curlFor({ vendor: 'sim-deepseek', model: 'm', url: 'http://sim.deepseek.local/v1/chat/completions', chars: 10, body: { content: 'JSON' } })!;
    expect(curl).toContain('-H "authorization: Bearer $DEEPSEEK_API_KEY"');
    expect(curl).toContain("<<'JSON_'");
    expect(curlFor({ vendor: 'openai', model: 'm', chars: 300_000, omitted: 'too large' })).toBeUndefined();
  });
});
