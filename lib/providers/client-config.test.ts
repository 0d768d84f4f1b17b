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
    expect(resolveClientConfig({ vendor: 'anthropic', apiKey: 'k', baseUrl: 'https://a.example', env: REAL_ENV })).toEqual({
      apiKey: 'k',
      baseURL: 'https://a.example',
    });
    expect(resolveClientConfig({ vendor: 'anthropic', env: REAL_ENV })).toEqual({
      apiKey: 'sk-ant-env-secret',
      baseURL: 'https://proxy.example/anthropic',
    });
    expect(resolveClientConfig({ vendor: 'openai', env: { OPENAI_API_KEY: 'k' } })).toEqual({
      apiKey: 'k',
      baseURL: 'https://api.openai.com/v1',
    });
    expect(resolveClientConfig({ vendor: 'anthropic', env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: '' } }).baseURL).toBe(
      'https://api.anthropic.com',
    );
  });

  it('keeps simulated vendors on their fake hosts and away from real keys', () => {
    expect(resolveClientConfig({ vendor: 'sim-anthropic', env: REAL_ENV })).toEqual({
      apiKey: 'sim-key',
      baseURL: 'http://sim.anthropic.local',
    });
    expect(resolveClientConfig({ vendor: 'sim-openai', env: REAL_ENV })).toEqual({
      apiKey: 'sim-key',
      baseURL: 'http://sim.openai.local/v1',
    });
  });

  it('names the variable to set when a real vendor has no key, and never echoes a key', () => {
    expect(() => resolveClientConfig({ vendor: 'anthropic', env: {} })).toThrow(ProviderConfigError);
    expect(() => resolveClientConfig({ vendor: 'anthropic', env: {} })).toThrow(/set ANTHROPIC_API_KEY/);
    expect(() => resolveClientConfig({ vendor: 'openai', env: { ANTHROPIC_API_KEY: 'x' } })).toThrow(/set OPENAI_API_KEY/);
    const noUrl = () => resolveClientConfig({ vendor: 'openai-compatible', env: { OPENAI_API_KEY: 'sk-secret' } });
    expect(noUrl).toThrow(/needs a base URL.*OPENAI_BASE_URL/);
    expect(noUrl).not.toThrow(/sk-secret/);
    expect(() =>
      resolveClientConfig({ vendor: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', env: {} }),
    ).toThrow(/placeholder/);
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
      expect(() => createProvider({ vendor: 'openai-compatible', apiKey: 'k', fetch: fetchNever, maxRetries: 0 })).toThrow(
        ProviderConfigError,
      );
    } finally {
      if (saved !== undefined) process.env.OPENAI_BASE_URL = saved;
    }
  });
});
