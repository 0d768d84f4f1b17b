export { ProviderConfigError, SIM_BASE_URLS, resolveClientConfig, type ClientConfig } from './client-config';
export { createProvider } from './create-provider';
export { mapAnthropicStopReason, mapOpenAIFinishReason } from './stop-reasons';
export type {
  ModelRequest,
  ProviderAdapter,
  ProviderOptions,
  StreamOptions,
  StreamPart,
  ToolSpec,
} from './types';
