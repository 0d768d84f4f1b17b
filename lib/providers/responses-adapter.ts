import OpenAI from 'openai';
import { openaiResponses } from '@/lib/dialects';
import { DEFAULT_TAKEOVER, takeoverRuleOn } from '@/lib/protocol';
import { lastReference, markHeldBy, type HeldPrefix } from '@/lib/trajectory';
import { SDK_TIMEOUT_MS, type ClientConfig } from './client-config';
import { ResponseChain } from './responses-chain';
import { createResponsesTranslator } from './responses-events';
import { translateStream } from './translate-stream';
import type { ProviderAdapter, ProviderOptions } from './types';

/**
 * An adapter over the real OpenAI SDK's `responses.stream`, for OpenAI's Responses API and its
 * simulator. It remembers which stored response holds which history (ResponseChain), so a
 * request whose prefix the vendor holds is sent by reference.
 */
export function createResponsesAdapter(options: {
  provider: ProviderOptions;
  client: ClientConfig;
}): ProviderAdapter {
  const { provider, client: config } = options;
  const vendor = provider.vendor;
  const client = new OpenAI({
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    fetch: provider.fetch,
    maxRetries: provider.maxRetries,
    timeout: SDK_TIMEOUT_MS,
    adminAPIKey: null,
    organization: null,
    project: null,
  });
  const chain = new ResponseChain();
  return {
    vendor,
    dialect: 'responses',
    endpoint: `${config.baseURL.replace(/\/+$/, '')}/responses`,
    stream(request, { signal, onPart, onRequestBody, onRenderReport }) {
      const handling = provider.handling ?? DEFAULT_TAKEOVER;
      const held =
        chain.held({ model: request.model, messages: request.messages }) ??
        foreignReference(request, { vendor, handling });
      const rendered = openaiResponses.render({ request, vendor, handling, ...(held ? { held } : {}) });
      const { params } = rendered;
      if (onRenderReport) onRenderReport(rendered.report);
      onRequestBody?.(params);
      const messages = [...request.messages];
      return translateStream({
        open: () =>
          openStream({
            client,
            params,
            signal,
            ...(provider.holdClock ? { holdClock: provider.holdClock } : {}),
          }),
        translator: createResponsesTranslator({
          onCompleted: (response) => {
            chain.completed({ messages, model: request.model, response });
            const last = messages[messages.length - 1];
            if (last)
              markHeldBy(last, {
                vendor,
                model: request.model,
                responseId: response.id,
                messages: messages.length + 1,
              });
          },
        }),
        signal,
        onPart,
      });
    },
  };
}

/**
 * With the `handles` safeguard switched off, a history another model or vendor held by
 * reference is sent by that reference, as code written for the first one would send it; the
 * vendor answers whether it holds it. With the safeguard on (always, unless named) nothing.
 */
function foreignReference(
  request: { model: string; messages: Parameters<typeof lastReference>[0] },
  context: { vendor: string; handling: Parameters<typeof takeoverRuleOn>[0] },
): HeldPrefix | undefined {
  if (takeoverRuleOn(context.handling, 'handles')) return undefined;
  const holder = lastReference(request.messages);
  if (!holder || (holder.vendor === context.vendor && holder.model === request.model)) return undefined;
  return {
    responseId: holder.responseId,
    messages: holder.messages,
    elsewhere: `${holder.vendor}/${holder.model}`,
  };
}

/**
 * The SDK's ResponseStream, resolved once the response headers arrived with a success status
 * (its `connect`), its iterator taken at once so no event is emitted before it listens. The
 * helper starts its request from a `setTimeout(0)` of its own, outside any run clock: the
 * clock is held until a timer set after it has fired (by then the request has reached the
 * transport), or a virtual clock could jump to the stream watchdog's deadline before the
 * request began.
 */
function openStream(options: {
  client: OpenAI;
  params: OpenAI.Responses.ResponseCreateParamsStreaming;
  signal: AbortSignal;
  holdClock?: (work: Promise<void>) => Promise<void>;
}): Promise<AsyncIterable<OpenAI.Responses.ResponseStreamEvent>> {
  const stream = options.client.responses.stream(options.params, { signal: options.signal });
  void options.holdClock?.(new Promise<void>((resolve) => setTimeout(resolve, 0)));
  const iterator = stream[Symbol.asyncIterator]();
  const iterable = { [Symbol.asyncIterator]: () => iterator };
  return new Promise((resolve, reject) => {
    stream.on('connect', () => resolve(iterable));
    stream.on('error', reject);
    stream.on('abort', reject);
  });
}
