import OpenAI from 'openai';
import { dialectFor } from '@/lib/dialects';
import { SDK_TIMEOUT_MS, type ClientConfig } from './client-config';
import { createOpenAITranslator } from './openai-chunks';
import { translateStream } from './translate-stream';
import type { ProviderAdapter, ProviderOptions } from './types';

/** An adapter over the real OpenAI SDK, for OpenAI, its simulators and compatible servers (the model picks the dialect). */
export function createOpenAIAdapter(options: {
  provider: ProviderOptions;
  client: ClientConfig;
}): ProviderAdapter {
  const { provider, client: config } = options;
  const vendor = provider.vendor;
  const handling = provider.handling ? { handling: provider.handling } : {};
  const client = new OpenAI({
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    fetch: provider.fetch,
    maxRetries: provider.maxRetries,
    timeout: SDK_TIMEOUT_MS,
    // The SDK would otherwise send these from the environment to any server, simulated or not.
    adminAPIKey: null,
    organization: null,
    project: null,
  });
  return {
    vendor,
    dialect: 'openai',
    endpoint: `${config.baseURL.replace(/\/+$/, '')}/chat/completions`,
    stream(request, { signal, onPart, onRequestBody, onRenderReport }) {
      const dialect = dialectFor({ vendor, model: request.model });
      if (dialect.wire !== 'openai') throw new Error(`${vendor} does not speak the OpenAI dialect`);
      const rendered = dialect.render({ request, vendor, ...handling });
      const { params } = rendered;
      // The report is built only when read: only a takeover's first request asks for it.
      if (onRenderReport) onRenderReport(rendered.report);
      onRequestBody?.(params);
      return translateStream({
        open: () => client.chat.completions.create(params, { signal }),
        translator: createOpenAITranslator({ baseURL: config.baseURL }),
        signal,
        onPart,
      });
    },
  };
}
