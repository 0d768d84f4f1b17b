import { describe, expect, it } from 'vitest';
import { readFetchInput } from './fetch-input';

describe('readFetchInput', () => {
  it('reads a string body exactly as a Response would, lone surrogates included', async () => {
    for (const body of ['{"model":"m"}', 'caf\u00e9 \u{1F600}', 'lone \uD800 high', 'lone \uDC00 low', '']) {
      const read = await readFetchInput({
        input: 'https://sim.test/v1/messages',
        init: { method: 'post', body },
      });
      expect(read.body).toBe(await new Response(body).text());
      expect(read.method).toBe('POST');
    }
  });

  it('reads byte, stream and Request bodies, the path without a trailing slash, and the headers', async () => {
    const bytes = await readFetchInput({
      input: new URL('https://sim.test/v1/chat/completions/'),
      init: { method: 'POST', body: new TextEncoder().encode('{"a":1}'), headers: { 'x-api-key': 'k' } },
    });
    expect(bytes).toMatchObject({ body: '{"a":1}', path: '/v1/chat/completions' });
    expect(bytes.headers.get('x-api-key')).toBe('k');
    const stream = new Blob(['{"b":2}']).stream();
    expect(
      (
        await readFetchInput({
          input: 'https://sim.test/v1/messages',
          init: { method: 'POST', body: stream, duplex: 'half' } as RequestInit,
        })
      ).body,
    ).toBe('{"b":2}');
    const request = new Request('https://sim.test/v1/messages', {
      method: 'POST',
      body: '{"c":3}',
      headers: { authorization: 'Bearer t' },
    });
    const read = await readFetchInput({ input: request });
    expect(read).toMatchObject({ body: '{"c":3}', method: 'POST', path: '/v1/messages' });
    expect(read.headers.get('authorization')).toBe('Bearer t');
    expect((await readFetchInput({ input: 'https://sim.test/v1/models' })).body).toBe('');
    const sdkHeaders = new Headers({ 'X-Api-Key': 'sdk' });
    expect(
      (
        await readFetchInput({
          input: 'https://sim.test/v1/messages',
          init: { method: 'POST', headers: sdkHeaders },
        })
      ).headers.get('x-api-key'),
    ).toBe('sdk');
    const pairs = await readFetchInput({
      input: 'https://sim.test/v1/messages',
      init: { headers: [['Authorization', 'Bearer p']] },
    });
    expect(pairs.headers.get('authorization')).toBe('Bearer p');
  });
});
