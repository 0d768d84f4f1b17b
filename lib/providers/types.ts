import type { CachedTokens, Dialect, StopReason, TakeoverHandling, Vendor } from '@/lib/protocol';
import type { ModelRequest, RenderReport } from '@/lib/trajectory';

/** The neutral request lives with the renderers (lib/trajectory); adapters take it as is. */
export type { ModelRequest, ToolSpec } from '@/lib/trajectory';

/**
 * What an adapter yields while a response streams. Only adapters know vendor JSON; the
 * engine sees these parts and nothing else. `index` is the content block position.
 */
export type StreamPart =
  | { type: 'connected' }
  /** `inputTokens` is the whole prompt; `cachedInput` the part of it the vendor read from its prompt cache or wrote to it. */
  | { type: 'response-start'; id: string; model: string; inputTokens?: number; cachedInput?: CachedTokens }
  | { type: 'text-delta'; index: number; text: string }
  | { type: 'thinking-delta'; index: number; text: string }
  | { type: 'thinking-signature'; index: number; signature: string; itemId?: string }
  | { type: 'redacted-thinking'; index: number; data: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argsText: string }
  | { type: 'block-stop'; index: number }
  | { type: 'usage'; inputTokens?: number; outputTokens?: number; cachedInput?: CachedTokens }
  | { type: 'finish'; stopReason: StopReason; vendorStopReason: string };

export interface StreamOptions {
  /** Aborting it aborts the HTTP request underneath the SDK (the watchdog uses this). */
  signal: AbortSignal;
  /**
   * Receives every part, synchronously, as the SDK yields the event it came from. A callback
   * rather than an async iterator: one more async hop per streamed delta is most of what an
   * engine adds over the bare SDK.
   */
  onPart: (part: StreamPart) => void;
  /** Called with the exact JSON body the adapter sends, for the trace (never headers). */
  onRequestBody?: (body: unknown) => void;
  /** Called with what rendering converted or dropped (credentials, unparsable args), for swap events. */
  onRenderReport?: (report: RenderReport) => void;
}

export interface ProviderAdapter {
  readonly vendor: Vendor;
  readonly dialect: Dialect;
  /** Where its requests go: the base URL and the API's path (no key), for the trace and "copy as curl". */
  readonly endpoint?: string;
  /**
   * Streams one response into `onPart`; resolves when the stream ends (with or without a
   * finish part). SDK errors reject unchanged for the classifier; an abort rejects with the
   * signal's reason.
   */
  stream(request: ModelRequest, options: StreamOptions): Promise<void>;
}

export interface ProviderOptions {
  vendor: Vendor;
  /** Base URL; defaults to the SDK's environment variable or the vendor's own. */
  baseUrl?: string;
  /** The key for this run; never logged, stored or echoed. */
  apiKey?: string;
  /** The transport: a simulated vendor or the global fetch, under the fault wrapper. */
  fetch: typeof fetch;
  /** The SDK's own retries (0 unless the sdk-default preset asks for them). */
  maxRetries: number;
  /** How history from another vendor or model is rendered (default: credentials and foreign thinking dropped). */
  handling?: TakeoverHandling;
  /**
   * The run clock's `hold`, for an SDK helper that starts its request from a timer of its own
   * (the Responses stream): time must not jump before the request is under way.
   */
  holdClock?: (work: Promise<void>) => Promise<void>;
}
