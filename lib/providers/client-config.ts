import type { Vendor } from '@/lib/protocol';

/** A provider that cannot be built as configured; the message says what to set. */
export class ProviderConfigError extends Error {
  override readonly name = 'ProviderConfigError';
}

export interface ClientConfig {
  baseURL: string;
  apiKey: string;
}

/** Hosts the simulated vendors answer for; they never resolve, the sim is the fetch. */
export const SIM_BASE_URLS = {
  'sim-anthropic': 'http://sim.anthropic.local',
  'sim-openai': 'http://sim.openai.local/v1',
} as const;
const SIM_KEY = 'sim-key';

const REAL = {
  anthropic: { urlVar: 'ANTHROPIC_BASE_URL', keyVar: 'ANTHROPIC_API_KEY', defaultUrl: 'https://api.anthropic.com' },
  openai: { urlVar: 'OPENAI_BASE_URL', keyVar: 'OPENAI_API_KEY', defaultUrl: 'https://api.openai.com/v1' },
  'openai-compatible': { urlVar: 'OPENAI_BASE_URL', keyVar: 'OPENAI_API_KEY', defaultUrl: undefined },
} as const;

/**
 * Where a client points and which key it sends. A simulated vendor never reads the real
 * vendors' environment: a developer's real key or proxy URL has no business reaching the
 * simulator's fetch (or its traces). Errors name the variable to set, never a key.
 */
export function resolveClientConfig(options: {
  vendor: Vendor;
  baseUrl?: string;
  apiKey?: string;
  env: Record<string, string | undefined>;
}): ClientConfig {
  const { vendor, env } = options;
  const baseUrl = nonEmpty(options.baseUrl);
  const apiKey = nonEmpty(options.apiKey);
  if (vendor === 'sim-anthropic' || vendor === 'sim-openai') {
    return { baseURL: baseUrl ?? SIM_BASE_URLS[vendor], apiKey: apiKey ?? SIM_KEY };
  }

  const spec = REAL[vendor];
  const baseURL = baseUrl ?? nonEmpty(env[spec.urlVar]) ?? spec.defaultUrl;
  if (baseURL === undefined) {
    throw new ProviderConfigError(
      `vendor "${vendor}" needs a base URL: set provider.baseUrl in the run config or ${spec.urlVar} in the server ` +
        'environment (for example https://api.deepseek.com or http://localhost:11434/v1)',
    );
  }
  const key = apiKey ?? nonEmpty(env[spec.keyVar]);
  if (key === undefined) {
    const local = vendor === 'openai-compatible' ? ' (any placeholder works for a local server that ignores keys)' : '';
    throw new ProviderConfigError(
      `no API key for vendor "${vendor}": set ${spec.keyVar} in the server environment or send a key with the run${local}`,
    );
  }
  return { baseURL, apiKey: key };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * The SDK's own timeout only covers the wait for response headers and would fire on a slow
 * first byte; stalls are the engine's watchdog's job, so this is set out of the way.
 */
export const SDK_TIMEOUT_MS = 60 * 60 * 1000;
