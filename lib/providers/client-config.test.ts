import { describe, expect, it } from 'vitest';
import { ProviderConfigError, resolveClientConfig } from './client-config';
import { createProvider } from './create-provider';

const REAL_ENV = {
  ANTHROPIC_API_KEY: 'sk-ant-env-secret',
  ANTHROPIC_BASE_URL: 'https://proxy.example/anthropic',
  OPENAI_API_KEY: 'sk-openai-env-secret',
  OPENAI_BASE_URL: 'https://proxy.example/v1',
};

describe('resolveClientConfig', () => {
  it('prefers the run options, then the SDK environment variables, then the vendor default', () => {
    expect(
      resolveClientConfig({ vendor: 'anthropic', apiKey: 'k', baseUrl: 'https://a.example', env: REAL_ENV }),
    ).toEqual({
      apiKey: 'k',
      baseURL: 'https://a.example',
      keyFrom: 'request',
    });
    expect(resolveClientConfig({ vendor: 'anthropic', env: REAL_ENV })).toEqual({
      apiKey: 'sk-ant-env-secret',
      baseURL: 'https://proxy.example/anthropic',
      keyFrom: 'env',
    });
    expect(resolveClientConfig({ vendor: 'openai', env: { OPENAI_API_KEY: 'k' } })).toEqual({
      apiKey: 'k',
      baseURL: 'https://api.openai.com/v1',
      keyFrom: 'env',
    });
    expect(
      resolveClientConfig({ vendor: 'anthropic', env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: '' } })
        .baseURL,
    ).toBe('https://api.anthropic.com');
  });

  it('keeps simulated vendors on their fake hosts and away from real keys', () => {
    expect(resolveClientConfig({ vendor: 'sim-anthropic', env: REAL_ENV })).toEqual({
      apiKey: 'sim-key',
      baseURL: 'http://sim.anthropic.local',
      keyFrom: 'sim',
    });
    expect(resolveClientConfig({ vendor: 'sim-openai', env: REAL_ENV })).toEqual({
      apiKey: 'sim-key',
      baseURL: 'http://sim.openai.local/v1',
      keyFrom: 'sim',
    });
  });

  it('names the variable to set when a real vendor has no key, and never echoes a key', () => {
    expect(() => resolveClientConfig({ vendor: 'anthropic', env: {} })).toThrow(ProviderConfigError);
    expect(() => resolveClientConfig({ vendor: 'anthropic', env: {} })).toThrow(/set ANTHROPIC_API_KEY/);
    expect(() => resolveClientConfig({ vendor: 'openai', env: { ANTHROPIC_API_KEY: 'x' } })).toThrow(
      /set OPENAI_API_KEY/,
    );
    const noUrl = () =>
      resolveClientConfig({ vendor: 'openai-compatible', env: { OPENAI_API_KEY: 'sk-secret' } });
    expect(noUrl).toThrow(/needs a base URL.*OPENAI_BASE_URL/);
    expect(noUrl).not.toThrow(/sk-secret/);
    expect(() =>
      resolveClientConfig({ vendor: 'openai-compatible', baseUrl: 'https://llm.example/v1', env: {} }),
    ).toThrow(/send a key with the run/);
    expect(() =>
      resolveClientConfig({
        vendor: 'openai-compatible',
        env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' },
      }),
    ).toThrow(/placeholder/);
  });
});

describe("resolveClientConfig: where the server's own key may go", () => {
  const fieldOf = (run: () => unknown): string | undefined => {
    try {
      run();
    } catch (error) {
      if (error instanceof ProviderConfigError) return error.field;
      throw error;
    }
    return undefined;
  };

  it('never pairs an environment key with a URL the request chose', () => {
    for (const vendor of ['anthropic', 'openai', 'openai-compatible'] as const) {
      const attempt = () =>
        resolveClientConfig({ vendor, baseUrl: 'https://attacker.example/v1', env: REAL_ENV });
      expect(attempt).toThrow(ProviderConfigError);
      expect(attempt).toThrow(/send a key with the run \(apiKey\)/);
      expect(attempt).not.toThrow(/sk-/);
      expect(fieldOf(attempt)).toBe('apiKey');
    }
    // Look-alikes of a named URL are other URLs.
    for (const baseUrl of [
      'https://api.openai.com.attacker.example/v1',
      'https://api.openai.com/v1/../../x',
      'http://api.openai.com/v1',
    ]) {
      expect(() =>
        resolveClientConfig({ vendor: 'openai', baseUrl, env: { OPENAI_API_KEY: 'sk-env' } }),
      ).toThrow(ProviderConfigError);
    }
  });

  it('sends the environment key to the official endpoint and to URLs the environment names', () => {
    const env = {
      ...REAL_ENV,
      LOOP_LAB_ALLOWED_BASE_URLS: 'http://127.0.0.1:8080/v1, https://llm.internal/anthropic',
    };
    const routed = (vendor: 'anthropic' | 'openai' | 'openai-compatible', baseUrl: string) =>
      resolveClientConfig({ vendor, baseUrl, env });
    expect(routed('anthropic', 'https://api.anthropic.com/')).toMatchObject({
      keyFrom: 'env',
      baseURL: 'https://api.anthropic.com',
    });
    expect(routed('anthropic', 'https://proxy.example/anthropic/')).toMatchObject({
      keyFrom: 'env',
      apiKey: 'sk-ant-env-secret',
    });
    expect(routed('anthropic', 'https://llm.internal/anthropic')).toMatchObject({
      keyFrom: 'env',
      apiKey: 'sk-ant-env-secret',
    });
    expect(routed('openai-compatible', 'http://127.0.0.1:8080/v1/')).toMatchObject({
      keyFrom: 'env',
      apiKey: 'sk-openai-env-secret',
    });
    expect(routed('openai', 'https://api.openai.com/v1')).toMatchObject({
      keyFrom: 'env',
      apiKey: 'sk-openai-env-secret',
    });
  });

  it('accepts only http(s) URLs without credentials in them', () => {
    for (const baseUrl of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ftp://example.com',
      'not a url',
      'https://user:pw@example.com',
    ]) {
      const attempt = () => resolveClientConfig({ vendor: 'openai', baseUrl, apiKey: 'sk-request', env: {} });
      expect(fieldOf(attempt)).toBe('provider.baseUrl');
    }
    expect(() => resolveClientConfig({ vendor: 'sim-openai', baseUrl: 'file:///x', env: {} })).toThrow(
      /http/,
    );
  });

  it('LOOP_LAB_CUSTOM_BASE_URLS=off refuses request-chosen URLs even with a request key', () => {
    const env = { ...REAL_ENV, LOOP_LAB_CUSTOM_BASE_URLS: 'off' };
    const attempt = () =>
      resolveClientConfig({
        vendor: 'openai',
        baseUrl: 'https://elsewhere.example/v1',
        apiKey: 'sk-request',
        env,
      });
    expect(fieldOf(attempt)).toBe('provider.baseUrl');
    expect(attempt).toThrow(/LOOP_LAB_CUSTOM_BASE_URLS=off/);
    expect(resolveClientConfig({ vendor: 'openai', baseUrl: 'https://proxy.example/v1', env })).toMatchObject(
      { keyFrom: 'env' },
    );
    expect(resolveClientConfig({ vendor: 'openai', apiKey: 'sk-request', env })).toMatchObject({
      keyFrom: 'request',
      baseURL: 'https://proxy.example/v1',
    });
  });
});

describe('createProvider', () => {
  const fetchNever = (() => Promise.reject(new Error('no network in this test'))) as typeof fetch;

  it('picks the adapter by dialect', () => {
    const anthropic = createProvider({ vendor: 'sim-anthropic', fetch: fetchNever, maxRetries: 0 });
    const openai = createProvider({ vendor: 'sim-openai', fetch: fetchNever, maxRetries: 0 });
    expect([anthropic.vendor, anthropic.dialect]).toEqual(['sim-anthropic', 'anthropic']);
    expect([openai.vendor, openai.dialect]).toEqual(['sim-openai', 'openai']);
  });

  it('fails fast for a compatible server without a base URL', () => {
    const saved = process.env.OPENAI_BASE_URL;
    delete process.env.OPENAI_BASE_URL;
    try {
      expect(() =>
        createProvider({ vendor: 'openai-compatible', apiKey: 'k', fetch: fetchNever, maxRetries: 0 }),
      ).toThrow(ProviderConfigError);
    } finally {
      if (saved !== undefined) process.env.OPENAI_BASE_URL = saved;
    }
  });
});
