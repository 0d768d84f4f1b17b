import { dialectOf } from '@/lib/protocol';
import { createAnthropicAdapter } from './anthropic-adapter';
import { resolveClientConfig } from './client-config';
import { createOpenAIAdapter } from './openai-adapter';
import { createResponsesAdapter } from './responses-adapter';
import type { ProviderAdapter, ProviderOptions } from './types';
import { processEnv } from '@/lib/config/server-env';

/**
 * The adapter for a vendor. Throws ProviderConfigError when a real vendor has no key or
 * an OpenAI-compatible one no base URL; the message names what to set and never a key.
 */
export function createProvider(options: ProviderOptions): ProviderAdapter {
  const client = resolveClientConfig({
    vendor: options.vendor,
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    env: processEnv(),
  });
  switch (dialectOf(options.vendor)) {
    case 'anthropic':
      return createAnthropicAdapter({ provider: options, client });
    case 'responses':
      return createResponsesAdapter({ provider: options, client });
    case 'openai':
      return createOpenAIAdapter({ provider: options, client });
  }
}
