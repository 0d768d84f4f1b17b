import type { ErrorCategory, Message, RetryDeclinedNext, RetryDeclinedRule } from '@/lib/protocol';

/** One model call in the browser's run view: its HTTP attempts, what came back on each, and how each ended. */

/** One content block of a streamed response, assembled from its deltas. */
export interface BlockView {
  index: number;
  kind: 'text' | 'thinking' | 'tool_args';
  text: string;
  callId?: string;
  tool?: string;
}

export interface ErrorView {
  ts: number;
  /** The model_error event (the log holds it; its "why" is read from there). */
  seq: number;
  message: string;
  status?: number;
  vendorType?: string;
  category: ErrorCategory;
  rule: string;
  retryable: boolean;
  partial: boolean;
}

export interface RetryView {
  ts: number;
  /** The retry_scheduled event. */
  seq: number;
  nextAttempt: number;
  maxAttempts: number;
  category: ErrorCategory;
  rung: 'silent_retry' | 'degrade' | 'surface';
  computedDelayMs: number;
  retryAfterMs?: number;
  waitMs: number;
  reason: string;
  /** The backoff formula as the retry function computed it ("1000 × 2² = 4000, cap 60000, jitter ×0.94 → 3760 ms"); absent for a retry at once. */
  formula?: string;
  /** Measured when the next attempt's request goes out. */
  actualWaitMs?: number;
}

/** The retry_declined event: the call stopped retrying, with the rule and what follows. */
export interface DeclinedView {
  ts: number;
  seq: number;
  rule: RetryDeclinedRule;
  next: RetryDeclinedNext;
  maxAttempts: number;
  why: string;
}

export interface WatchdogView {
  windowMs: number;
  armedTs: number;
  /** Last time content arrived (the window restarts from here). */
  lastResetTs: number;
  fired?: { ts: number; seq: number; outcome: 'empty' | 'partial' };
}

/** What llm_call reported for an attempt that produced a response. */
export interface CallResultView {
  ts: number;
  stopReason: string;
  vendorStopReason?: string;
  inputTokens: number;
  outputTokens: number;
  usd?: number;
  latencyMs: number;
  partial: boolean;
  vendor?: string;
  model?: string;
  message?: Message;
  /** What an auxiliary call was for ("title", "summary"). */
  purpose?: string;
}

/** stopped: the run ended (abort, a budget) while the attempt was still open. */
export type AttemptOutcome = 'pending' | 'streaming' | 'ok' | 'error' | 'watchdog' | 'cut' | 'stopped';

/** One HTTP request the vendor SDK retried on its own, beneath the loop (sdk_retry). */
export interface SdkRetryView {
  seq: number;
  ts: number;
  requestNo: number;
  retry: number;
  maxRetries: number;
  afterStatus?: number;
  waitMs: number;
  formula: string;
}

/** One HTTP attempt of one model call. */
export interface AttemptView {
  attempt: number;
  requestNo: number;
  vendor: string;
  model: string;
  background: boolean;
  messageCount: number;
  inputTokensEst: number;
  maxTokens: number;
  /** Why `maxTokens` is below the configured cap (the model's own limit), as the engine wrote it. */
  maxTokensWhy?: string;
  /** The request body as sent: from an imported log's request, or kept at a swap for the requests on each side of it. */
  body?: unknown;
  /** Why this attempt's body is kept: the request on one side of a swap. */
  bodyAt?: string;
  startTs: number;
  openTs?: number;
  ttfbMs?: number;
  responseId?: string;
  /** HTTP requests the vendor SDK sent again on its own inside this attempt (sdk_retry), in order. */
  sdkRetries?: readonly SdkRetryView[];
  /** Run-time spans in which content arrived (close deltas merged). */
  contentSpans: ReadonlyArray<readonly [number, number]>;
  blocks: readonly BlockView[];
  endTs?: number;
  outcome: AttemptOutcome;
  error?: ErrorView;
  retry?: RetryView;
  /** Set when the call gave up after this attempt (or kept its Partial): the decision, as the engine wrote it. */
  declined?: DeclinedView;
  watchdog?: WatchdogView;
  /** Keepalives the vendor sent on this attempt (they never reset the watchdog). */
  keepalives?: KeepaliveView;
  result?: CallResultView;
}

export interface KeepaliveView {
  /** Keepalives received so far. */
  count: number;
  style: 'ping' | 'comment';
  /** Run times of the keepalive events (coalesced: at most one a second), the latest 500. */
  ts: readonly number[];
}
