import { renderChat } from './chat-render';
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
  render: (options) => renderChat(options, { legacyMaxTokens: true }),
};
