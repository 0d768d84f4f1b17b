import type { Dialect, DialectId, TakeoverHandling, Vendor } from '@/lib/protocol';
import type {
  HeldPrefix,
  ModelRequest,
  RenderedAnthropic,
  RenderedOpenAI,
  RenderedResponses,
} from '@/lib/trajectory';

export type { DialectId };

export interface RenderOptions {
  request: ModelRequest;
  vendor: Vendor;
  handling?: TakeoverHandling;
  /** Responses only: the history's prefix the vendor holds as a stored response. */
  held?: HeldPrefix;
}

interface DialectBase {
  /** The id a vendor row's `dialect` names (lib/protocol/vendors.ts). */
  id: DialectId;
  label: string;
  /** What it does with thinking, for the takeover panel. */
  thinkingRule: string;
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
 * was converted and dropped). Registered by id (registry.ts); providers render through it; the
 * runtime uses it to describe and probe a takeover. What a vendor needs to be reached (key,
 * address, SDK) is its row's, not its dialect's.
 */
export type DialectModule = AnthropicDialect | OpenAIDialect | ResponsesDialect;
