import type { Dialect, TakeoverHandling, Vendor } from '@/lib/protocol';
import type {
  HeldPrefix,
  ModelRequest,
  RenderedAnthropic,
  RenderedOpenAI,
  RenderedResponses,
} from '@/lib/trajectory';

/** The five ways Loop Lab speaks to a vendor. */
export type DialectId =
  'anthropic-messages' | 'openai-chat' | 'deepseek-reasoning' | 'openai-compatible' | 'openai-responses';

export interface RenderOptions {
  request: ModelRequest;
  vendor: Vendor;
  handling?: TakeoverHandling;
  /** Responses only: the history's prefix the vendor holds as a stored response. */
  held?: HeldPrefix;
}

/** What a real endpoint of this dialect needs from the server's environment or the run. */
export interface EndpointNeeds {
  keyVar: string;
  baseUrlVar: string;
  /** Undefined: no official endpoint, a base URL must be given. */
  officialBaseUrl?: string;
}

interface DialectBase {
  id: DialectId;
  label: string;
  /** What it does with thinking, for the takeover panel. */
  thinkingRule: string;
  needs: EndpointNeeds;
}

export interface AnthropicDialect extends DialectBase {
  wire: Extract<Dialect, 'anthropic'>;
  render(options: RenderOptions): RenderedAnthropic;
}

export interface OpenAIDialect extends DialectBase {
  wire: Extract<Dialect, 'openai'>;
  render(options: RenderOptions): RenderedOpenAI;
}

export interface ResponsesDialect extends DialectBase {
  wire: Extract<Dialect, 'responses'>;
  render(options: RenderOptions): RenderedResponses;
}

/**
 * One vendor dialect: request rendering from the neutral trajectory (with a report of what
 * was converted and dropped) and what a config needs to reach it. Providers render through
 * it; the runtime uses it to describe and probe a takeover.
 */
export type DialectModule = AnthropicDialect | OpenAIDialect | ResponsesDialect;
