import { renderOpenAI } from '@/lib/trajectory';
import { withChatFormat } from './response-format';
import type { OpenAIDialect } from './types';

/**
 * A plain OpenAI-compatible server (Ollama, vLLM, llama.cpp): the chat format with the
 * older `max_tokens` field those servers read, and no thinking sent back.
 */
export const openaiCompatible: OpenAIDialect = {
  id: 'openai-compatible',
  label: 'OpenAI-compatible',
  wire: 'openai',
  thinkingRule: 'takes no thinking back: foreign thinking is dropped (or kept as a marked note)',
  render: ({ request, vendor, handling }) => {
    const rendered = renderOpenAI({
      request,
      vendor,
      reasoningContent: false,
      legacyMaxTokens: true,
      ...(handling ? { handling } : {}),
    });
    if (!request.responseFormat) return rendered;
    return {
      params: withChatFormat(rendered.params, request.responseFormat),
      get report() {
        return rendered.report;
      },
    };
  },
};
