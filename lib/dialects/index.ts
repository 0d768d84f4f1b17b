/** One module per vendor dialect: rendering with a report, and what a config needs. */
export { anthropicMessages } from './anthropic-messages';
export { deepseekReasoning } from './deepseek-reasoning';
export { DIALECTS, dialectFor } from './dialect-for';
export { openaiChat } from './openai-chat';
export { openaiCompatible } from './openai-compatible';
export type { AnthropicDialect, DialectId, DialectModule, EndpointNeeds, OpenAIDialect, RenderOptions } from './types';
