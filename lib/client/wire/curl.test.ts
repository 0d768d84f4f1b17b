import { describe, expect, it } from 'vitest';
import { curlFor, noCurlReason } from './curl';

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
    const curl = curlFor({
      vendor: 'sim-deepseek',
      model: 'm',
      url: 'http://sim.deepseek.local/v1/chat/completions',
      chars: 10,
      body: { content: 'JSON' },
    })!;
    expect(curl).toContain('-H "authorization: Bearer $DEEPSEEK_API_KEY"');
    expect(curl).toContain("<<'JSON_'");
    expect(curlFor({ vendor: 'openai', model: 'm', chars: 300_000, omitted: 'too large' })).toBeUndefined();
  });

  it('offers no command whose address is a placeholder: a body without its endpoint gives none, and says why', () => {
    const sent = { vendor: 'sim-openai-responses', model: 'm', chars: 10, body: { input: [] } };
    expect(curlFor(sent)).toBeUndefined();
    expect(noCurlReason(sent)).toBe('the run did not record the endpoint this body went to');
    expect(noCurlReason({ ...sent, url: 'http://sim.openai-responses.local/v1/responses' })).toBeUndefined();
  });

  it('picks the headers by the vendor’s dialect, not by the path', () => {
    const curl = curlFor({
      vendor: 'anthropic',
      model: 'm',
      url: 'https://gateway.example.test/anthropic',
      chars: 2,
      body: {},
    })!;
    expect(curl).toContain('-H "x-api-key: $ANTHROPIC_API_KEY"');
    const responses = curlFor({
      vendor: 'openai-responses',
      model: 'm',
      url: 'https://api.openai.com/v1/responses',
      chars: 2,
      body: {},
    })!;
    expect(responses.split('\n')[0]).toBe("curl 'https://api.openai.com/v1/responses' \\");
    expect(responses).toContain('-H "authorization: Bearer $OPENAI_API_KEY"');
  });
});
