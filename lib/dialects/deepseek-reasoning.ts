import { renderOpenAI } from '@/lib/trajectory';
import type { OpenAIDialect } from './types';

/**
 * DeepSeek-style reasoning (OpenAI's chat format plus `reasoning_content`): in thinking mode
 * every assistant turn with tool calls must carry `reasoning_content` back, even an empty
 * one, or the request is a 400. Its own reasoning goes back; foreign thinking never does,
 * and a turn without any gets an empty placeholder.
 */
export const deepseekReasoning: OpenAIDialect = {
  id: 'deepseek-reasoning',
  label: 'DeepSeek-style reasoning',
  wire: 'openai',
  thinkingRule:
    'needs reasoning_content on every tool-call turn (its own, or an empty placeholder); a turn without it is a 400',
  render: ({ request, vendor, handling }) =>
    renderOpenAI({
      request,
      vendor,
      reasoningContent: true,
      legacyMaxTokens: true,
      ...(handling ? { handling } : {}),
    }),
};
