export {
  ALLOWED_BASE_URLS_VAR,
  CUSTOM_BASE_URLS_VAR,
  REQUEST_HOSTS_VAR,
  ProviderConfigError,
  resolveClientConfig,
  type ClientConfig,
  type ProviderConfigField,
} from './client-config';
export { createProvider } from './create-provider';
export { BaseUrlAddressError } from './pinned-fetch';
export { createRealVendorFetch } from './real-vendor-fetch';
export { mapAnthropicStopReason, mapOpenAIFinishReason } from './stop-reasons';
export type {
  ModelRequest,
  ProviderAdapter,
  ProviderOptions,
  StreamOptions,
  StreamPart,
  ToolSpec,
} from './types';
