import { renderOpenAI } from '@/lib/trajectory';
import { withChatFormat } from './response-format';
import type { OpenAIDialect } from './types';

/** OpenAI Chat Completions: no place for thinking at all; `max_completion_tokens`. */
export const openaiChat: OpenAIDialect = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  wire: 'openai',
  thinkingRule: 'has no field for thinking: foreign thinking is dropped (or kept as a marked note)',
  render: ({ request, vendor, handling }) => {
    const rendered = renderOpenAI({
      request,
      vendor,
      reasoningContent: false,
      legacyMaxTokens: false,
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
