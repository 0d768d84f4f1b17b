import { vendorRow } from '@/lib/protocol';
import { createAnthropicAdapter } from './anthropic-adapter';
import { resolveClientConfig } from './client-config';
import { createOpenAIAdapter } from './openai-adapter';
import { createResponsesAdapter } from './responses-adapter';
import type { ProviderAdapter, ProviderOptions } from './types';
import { processEnv } from '@/lib/config/server-env';

/**
 * The adapter for a vendor: its row's SDK, for its row's wire format (the table checks the two
 * agree). Throws ProviderConfigError when a real vendor has no key or no base URL; the message
 * names what to set and never a key.
 */
export function createProvider(options: ProviderOptions): ProviderAdapter {
  const { sdk, wire } = vendorRow(options.vendor);
  const client = resolveClientConfig({
    vendor: options.vendor,
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    env: processEnv(),
  });
  if (sdk === 'anthropic') return createAnthropicAdapter({ provider: options, client });
  return wire === 'responses'
    ? createResponsesAdapter({ provider: options, client })
    : createOpenAIAdapter({ provider: options, client });
}
