/** One module per vendor dialect (rendering with a report), found by id through one registry. */
export { anthropicMessages } from './anthropic-messages';
export { deepseekReasoning } from './deepseek-reasoning';
export { dialectFor, dialects, registerDialect } from './registry';
export { openaiChat } from './openai-chat';
export { openaiCompatible } from './openai-compatible';
export { openaiResponses } from './openai-responses';
export type {
  AnthropicDialect,
  DialectId,
  DialectModule,
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
