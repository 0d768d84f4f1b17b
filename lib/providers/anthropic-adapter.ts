import Anthropic from '@anthropic-ai/sdk';
import { anthropicMessages } from '@/lib/dialects';
import { createAnthropicTranslator } from './anthropic-events';
import { SDK_TIMEOUT_MS, type ClientConfig } from './client-config';
import { translateStream } from './translate-stream';
import type { ProviderAdapter, ProviderOptions } from './types';

/** An adapter over the real Anthropic SDK; the transport is whatever fetch it is given. */
export function createAnthropicAdapter(options: {
  provider: ProviderOptions;
  client: ClientConfig;
}): ProviderAdapter {
  const { provider, client: config } = options;
  const vendor = provider.vendor;
  const handling = provider.handling ? { handling: provider.handling } : {};
  const client = new Anthropic({
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    fetch: provider.fetch,
    maxRetries: provider.maxRetries,
    timeout: SDK_TIMEOUT_MS,
    // Without the SDK's own spans: a run's trace is Loop Lab's, from its log (lib/otel). Nothing
    // here registers a tracer provider (and a run thread, an isolate of its own, has none), so
    // each request built a span's attributes and parsed the base URL for a span that records
    // nothing and adds no header.
    openTelemetry: false,
  });
  return {
    vendor,
    dialect: 'anthropic',
    endpoint: `${config.baseURL.replace(/\/+$/, '')}/v1/messages`,
    stream(request, { signal, onPart, onRequestBody, onRenderReport }) {
      const rendered = anthropicMessages.render({ request, vendor, ...handling });
      const { params } = rendered;
      // The report is built only when read: only a takeover's first request asks for it.
      if (onRenderReport) onRenderReport(rendered.report);
      onRequestBody?.(params);
      return translateStream({
        open: () => client.messages.create(params, { signal }),
        translator: createAnthropicTranslator(
          request.responseFormat ? { answerTool: request.responseFormat.name } : {},
        ),
        signal,
        onPart,
      });
    },
  };
}
