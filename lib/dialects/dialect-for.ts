import type { Vendor } from '@/lib/protocol';
import { anthropicMessages } from './anthropic-messages';
import { deepseekReasoning } from './deepseek-reasoning';
import { openaiChat } from './openai-chat';
import { openaiCompatible } from './openai-compatible';
import { openaiResponses } from './openai-responses';
import type { DialectModule } from './types';

/**
 * The dialect a vendor and model speak. A server reached by base URL is taken for DeepSeek
 * when its model is a DeepSeek one (deepseek-chat, deepseek-reasoner), else for a plain
 * OpenAI-compatible server.
 */
export function dialectFor(options: { vendor: Vendor; model: string }): DialectModule {
  switch (options.vendor) {
    case 'sim-anthropic':
    case 'anthropic':
      return anthropicMessages;
    case 'sim-openai':
    case 'openai':
      return openaiChat;
    case 'sim-deepseek':
      return deepseekReasoning;
    case 'openai-compatible':
      return options.model.startsWith('deepseek') ? deepseekReasoning : openaiCompatible;
    case 'sim-openai-responses':
    case 'openai-responses':
      return openaiResponses;
  }
}

export const DIALECTS: readonly DialectModule[] = [
  anthropicMessages,
  openaiChat,
  deepseekReasoning,
  openaiCompatible,
  openaiResponses,
];
