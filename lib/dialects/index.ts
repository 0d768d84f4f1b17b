/** One module per vendor dialect: rendering with a report, and what a config needs. */
export { anthropicMessages } from './anthropic-messages';
export { deepseekReasoning } from './deepseek-reasoning';
export { DIALECTS, dialectFor } from './dialect-for';
export { openaiChat } from './openai-chat';
export { openaiCompatible } from './openai-compatible';
export { openaiResponses } from './openai-responses';
export type {
  AnthropicDialect,
  DialectId,
  DialectModule,
  EndpointNeeds,
  OpenAIDialect,
  RenderOptions,
  ResponsesDialect,
} from './types';
export {
  ANTHROPIC_HTTP_ERRORS,
  ANTHROPIC_REQUEST_ID_HEADER,
  anthropicErrorBody,
  anthropicStreamError,
} from './anthropic-errors';
export {
  OPENAI_HTTP_ERRORS,
  OPENAI_OVERLOADED,
  OPENAI_REQUEST_ID_HEADER,
  openaiErrorBody,
  openaiStreamError,
} from './openai-errors';
export {
  inStreamErrorRecord,
  vendorErrorBody,
  vendorHttpError,
  type InStreamErrorType,
  type VendorError,
} from './vendor-errors';
