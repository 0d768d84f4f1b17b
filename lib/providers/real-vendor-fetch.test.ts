import type dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '@/lib/engine/recovery';
import { BaseUrlAddressError } from './pinned-fetch';
import { createRealVendorFetch } from './real-vendor-fetch';

/**
 * A base URL chosen by a run request names a host; where that name resolves is checked when
 * the connection is made, on the connection then used. The names below exist only in the
 * test's own table, so a request that reaches the local server went to the address checked.
 */
describe('a request-chosen base URL whose name resolves to a refused address', () => {
  let server: http.Server;
  let port = 0;
  const received: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(`${req.method} ${req.url} ${body}`);
        res.writeHead(200, { 'content-type': 'application/json', 'x-seen-host': req.headers.host ?? '' });
        res.end(JSON.stringify({ echoed: body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const table: Record<string, dns.LookupAddress[]> = {
    'rebind.test': [{ address: '127.0.0.1', family: 4 }],
    'mixed.test': [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
    'meta.test': [{ address: '169.254.169.254', family: 4 }],
    'lan.test': [{ address: '192.168.1.20', family: 4 }],
    'six.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
  };
  const lookups: string[] = [];
  const resolve = async (hostname: string): Promise<dns.LookupAddress[]> => {
    lookups.push(hostname);
    const found = table[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
  const post = (fetch: typeof globalThis.fetch, host: string) =>
    fetch(`http://${host}:${port}/v1/chat/completions`, {
      method: 'POST',
      body: '{"model":"m"}',
      headers: { 'content-type': 'application/json' },
    });

  it('refuses a name that resolves to this machine, a private network or a metadata service, naming the address and the setting', async () => {
    const fetch = createRealVendorFetch({ env: {}, resolve });
    const before = received.length;
    await expect(post(fetch, 'rebind.test')).rejects.toThrow(BaseUrlAddressError);
    await expect(post(fetch, 'rebind.test')).rejects.toThrow(
      `provider.baseUrl's host rebind.test resolves to 127.0.0.1, a loopback address (this machine), which a run request may point the server at only ` +
        `when the server's environment names it: set LOOP_LAB_ALLOWED_REQUEST_HOSTS=rebind.test:${port}`,
    );
    await expect(post(fetch, 'six.test')).rejects.toThrow(/resolves to ::ffff:127.0.0.1, a loopback address/);
    await expect(post(fetch, 'lan.test')).rejects.toThrow(
      /resolves to 192.168.1.20, a private-network address/,
    );
    // Every address counts, not only the first.
    await expect(post(fetch, 'mixed.test')).rejects.toThrow(/resolves to 127.0.0.1, a loopback address/);
    expect(received.length).toBe(before);
  });

  it('never lets a listed host reach a metadata service', async () => {
    const fetch = createRealVendorFetch({
      env: { LOOP_LAB_ALLOWED_REQUEST_HOSTS: `meta.test:${port}` },
      resolve,
    });
    await expect(post(fetch, 'meta.test')).rejects.toThrow(
      /resolves to 169.254.169.254, a cloud metadata service: a run request may never point the server there/,
    );
  });

  it('connects a listed host to the address it checked, with one lookup per request', async () => {
    const fetch = createRealVendorFetch({
      env: { LOOP_LAB_ALLOWED_REQUEST_HOSTS: `rebind.test:${port}` },
      resolve,
    });
    lookups.length = 0;
    const response = await post(fetch, 'rebind.test');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-seen-host')).toBe(`rebind.test:${port}`);
    expect(await response.json()).toEqual({ echoed: '{"model":"m"}' });
    expect(lookups).toEqual(['rebind.test']);
    expect(received.at(-1)).toBe('POST /v1/chat/completions {"model":"m"}');
    // Where the host is not listed, that connection is not reused: the request is checked and refused.
    await expect(post(createRealVendorFetch({ env: {}, resolve }), 'rebind.test')).rejects.toThrow(
      BaseUrlAddressError,
    );
  });

  it('leaves a URL the environment names to the platform fetch, unresolved here', async () => {
    const fetch = createRealVendorFetch({ env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` }, resolve });
    lookups.length = 0;
    const response = await post(fetch, '127.0.0.1');
    expect(response.status).toBe(200);
    expect(lookups).toEqual([]);
  });

  it('reaches the run as a model error that names the refusal and is not retried', async () => {
    const client = new OpenAI({
      apiKey: 'sk-request',
      baseURL: `http://rebind.test:${port}/v1`,
      fetch: createRealVendorFetch({ env: {}, resolve }),
      maxRetries: 0,
    });
    const error = await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(classifyError(error)).toMatchObject({
      category: 'invalid_input',
      retryable: false,
      message: expect.stringContaining(
        "provider.baseUrl's host rebind.test resolves to 127.0.0.1, a loopback address",
      ) as unknown,
    });
  });
});
