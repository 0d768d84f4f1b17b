import { describe, expect, it } from 'vitest';
import { curlFor } from '@/lib/client/wire/curl';
import { dialectOf, vendorIds } from '@/lib/protocol';
import { createProvider } from './create-provider';
import { fixtureFetch } from './fixture-fetch';
import type { ModelRequest } from './types';

const request: ModelRequest = {
  model: 'm',
  system: 'You are a careful coding agent.',
  messages: [{ role: 'user', parts: [{ type: 'text', text: 'Make the failing test pass.' }] }],
  tools: [],
  maxTokens: 256,
  thinking: false,
};

const ERROR_BODY = JSON.stringify({
  type: 'error',
  error: { type: 'invalid_request_error', message: 'refused by the test' },
});

/**
 * Every vendor's adapter states where its requests go (the trace's `url`, "copy as curl"), and
 * that is the address its SDK really posts to: a curl built from a body it sent is addressed to
 * the same place, with that dialect's headers.
 */
describe.each(vendorIds().map((v) => [v] as const))('%s', (vendor) => {
  it('names the endpoint its SDK posts to, and copy-as-curl addresses it', async () => {
    const transport = fixtureFetch({
      body: ERROR_BODY,
      status: 400,
      headers: { 'content-type': 'application/json' },
    });
    const provider = createProvider({
      vendor,
      apiKey: 'sk-test-never-sent-anywhere',
      ...(vendor === 'openai-compatible' ? { baseUrl: 'https://llm.example.test/v1' } : {}),
      fetch: transport.fetch,
      maxRetries: 0,
    });
    let body: unknown;
    await expect(
      provider.stream(request, {
        signal: new AbortController().signal,
        onPart: () => {},
        onRequestBody: (b) => (body = b),
      }),
    ).rejects.toThrow();
    expect(transport.requests).toHaveLength(1);
    const posted = transport.requests[0]!;
    expect(posted.method).toBe('POST');
    expect(provider.endpoint).toBe(posted.url);

    const curl = curlFor({
      vendor,
      model: request.model,
      url: provider.endpoint!,
      chars: JSON.stringify(body).length,
      body,
    })!;
    const lines = curl.split('\n');
    expect(lines[0]).toBe(`curl '${posted.url}' \\`);
    // The dialect's key header, with the key as a variable (Anthropic's documented x-api-key and version).
    if (dialectOf(vendor) === 'anthropic') {
      expect(lines).toContain('  -H "x-api-key: $ANTHROPIC_API_KEY" \\');
      expect(lines).toContain('  -H "anthropic-version: 2023-06-01" \\');
    } else {
      expect(posted.headers.get('authorization')).toBe('Bearer sk-test-never-sent-anywhere');
      expect(lines.some((l) => /^ {2}-H "authorization: Bearer \$[A-Z_]+_API_KEY" \\$/.test(l))).toBe(true);
    }
    expect(curl).not.toContain('sk-test-never-sent-anywhere');
    // The body the curl sends is the one the SDK posted.
    expect(JSON.parse(lines.slice(lines.indexOf("  --data-binary @- <<'JSON'") + 1, -1).join('\n'))).toEqual(
      JSON.parse(posted.bodyText),
    );
  });
});
