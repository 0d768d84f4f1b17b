import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonPost, routeContext, useTempDataDir } from '@/lib/testing/api-test-env';
import { GET as getRuns, POST as postRun } from './route';
import { POST as postControl } from './[id]/control/route';

// POST /api/runs refuses, at POST time, every run whose key would go somewhere it should not
// (or that has no key at all): a 400 naming the field, and no run is created.
useTempDataDir('loop-lab-key-routing-');
afterEach(() => vi.unstubAllEnvs());

const post = (body: unknown) => postRun(jsonPost('http://localhost/api/runs', body));
const runCount = async () =>
  ((await (await getRuns(new Request('http://localhost/api/runs'))).json()) as unknown[]).length;

async function refused(body: unknown): Promise<string[]> {
  const before = await runCount();
  const response = await post(body);
  expect(response.status).toBe(400);
  expect(await runCount()).toBe(before);
  return ((await response.json()) as { details: string[] }).details;
}

describe('POST /api/runs: key routing', () => {
  it('refuses a request-chosen base URL without a request key instead of sending the server key there', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-env-canary-0123456789abcdef');
    vi.stubEnv('OPENAI_API_KEY', 'sk-openai-env-canary-0123456789abcdef');
    for (const vendor of ['anthropic', 'openai', 'openai-compatible']) {
      const details = await refused({
        config: { provider: { vendor, baseUrl: 'https://collector.example/v1' } },
      });
      expect(details).toEqual([
        expect.stringMatching(
          /^apiKey: provider\.baseUrl https:\/\/collector\.example\/v1 is not a URL this server's environment names/,
        ),
      ]);
      expect(JSON.stringify(details)).not.toContain('canary');
    }
  });

  it('refuses an OpenAI-compatible vendor without any key as a 400, not a run that dies as internal_error', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:11434/v1');
    expect(await refused({ config: { provider: { vendor: 'openai-compatible' } } })).toEqual([
      expect.stringMatching(
        /^apiKey: no API key for vendor "openai-compatible": set OPENAI_API_KEY .*placeholder/,
      ),
    ]);
  });

  it('refuses base URLs that are not http(s), naming provider.baseUrl', async () => {
    for (const baseUrl of ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://example.com/']) {
      const details = await refused({
        config: { provider: { vendor: 'openai', baseUrl } },
        apiKey: 'sk-request-key-0123456789',
      });
      expect(details).toEqual([
        expect.stringMatching(/^config\.provider\.baseUrl: must be an http:\/\/ or https:\/\/ URL/),
      ]);
    }
  });

  it('honours LOOP_LAB_CUSTOM_BASE_URLS=off', async () => {
    vi.stubEnv('LOOP_LAB_CUSTOM_BASE_URLS', 'off');
    const details = await refused({
      config: { provider: { vendor: 'openai', baseUrl: 'https://mine.example/v1' } },
      apiKey: 'sk-request-key-0123456789',
    });
    expect(details).toEqual([
      expect.stringMatching(/^config\.provider\.baseUrl: this server does not accept base URLs/),
    ]);
  });

  it('refuses keySource "request" on a real vendor when no key came with the request', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-env-canary-0123456789abcdef');
    expect(await refused({ config: { provider: { vendor: 'anthropic', keySource: 'request' } } })).toEqual([
      'apiKey: keySource is "request" but no key was sent',
    ]);
  });

  it('refuses a key that cannot be a header value (a line break, a control character, non-ASCII) on every route that takes one, naming apiKey and never quoting it', async () => {
    const canary = 'sk-canary-REQUEST-0123456789abcdef';
    const keys = [`${canary}\r\nX-Injected: 1`, `${canary}\u0000tail`, `${canary}é`];
    for (const apiKey of keys) {
      const config = {
        provider: { vendor: 'openai', keySource: 'request', baseUrl: 'https://mine.example/v1' },
      };
      const details = await refused({ config, apiKey });
      expect(details).toEqual([
        expect.stringMatching(
          /^apiKey: cannot be sent as a header value: (a line break|a control character|a character outside ASCII) at character 35/,
        ),
      ]);
      expect(JSON.stringify(details)).not.toContain(canary);
      expect(
        await refused({
          fork: { runId: 'any', atTurn: 1, provider: 'openai', baseUrl: 'https://mine.example/v1' },
          apiKey,
        }),
      ).toEqual([expect.stringMatching(/^apiKey: cannot be sent as a header value/)]);
      const swap = await postControl(
        jsonPost('http://localhost/api/runs/any/control', { action: 'swap', vendor: 'openai', apiKey }),
        routeContext({ id: 'any' }),
      );
      expect(swap.status).toBe(400);
      const body = await swap.text();
      expect(body).toMatch(/apiKey: cannot be sent as a header value/);
      expect(body).not.toContain(canary);
    }
  });
});
