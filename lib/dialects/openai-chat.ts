import { renderChat } from './chat-render';
import type { OpenAIDialect } from './types';

/** OpenAI Chat Completions: no place for thinking at all; `max_completion_tokens`. */
export const openaiChat: OpenAIDialect = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  wire: 'openai',
  thinkingRule: 'has no field for thinking: foreign thinking is dropped (or kept as a marked note)',
  render: (options) => renderChat(options, { legacyMaxTokens: false }),
};
