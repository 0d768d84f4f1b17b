import type { Clock, Random } from '@/lib/clock';
import type { ErrorCategory, Message, RecoveryConfig, StopReason } from '@/lib/protocol';
import { costUsd } from '@/lib/protocol';
import type { ModelRequest, ProviderAdapter } from '@/lib/providers/types';
import { estimateTokens as estimateTextTokens } from '@/lib/tokens/count-tokens';
import { consumeStream, type StreamOutcome, type Usage } from './consume-stream';
import type { Emit } from './event-log';
import { classifyAndRecord, emitModelRequest } from './attempt-events';
import { computeBackoff, decideWait } from './recovery';

/** A model call that could not be recovered: the error surfaces with every attempt made. */
export class ModelCallFailed extends Error {
  constructor(
    message: string,
    readonly category: ErrorCategory,
    readonly attempts: number,
    readonly exhausted: boolean,
  ) {
    super(message);
    this.name = 'ModelCallFailed';
  }
}

export interface CallResult {
  message: Message;
  usage: Usage;
  stopReason: StopReason;
  vendorStopReason: string;
  model: string;
  attempt: number;
  latencyMs: number;
  /** The stream was cut after content arrived; what arrived is kept (no retry, no double billing). */
  partial: boolean;
}

/** State that outlives one call: the model answering now and the run's overload streak. */
export interface CallState {
  model: string;
  fallbackModel: string;
  consecutiveOverloads: number;
  requestNo: number;
}

export interface CallOptions {
  provider: ProviderAdapter;
  request: Omit<ModelRequest, 'model'>;
  recovery: RecoveryConfig;
  state: CallState;
  clock: Clock;
  random: Random;
  emit: Emit;
  signal: AbortSignal;
  iteration: number;
}

/**
 * One model call and its retry ladder: classify each failure, then silent retry (with
 * backoff, or at once for an Empty watchdog firing), degrade (fallback model after
 * consecutive overloads), or surface with every attempt listed.
 */
export async function callModel(options: CallOptions): Promise<CallResult> {
  const { provider, recovery, state, clock, emit, signal, iteration } = options;
  const { retry, watchdog } = recovery;
  const maxAttempts = retry.enabled ? retry.maxRetries + 1 : 1;
  let streamErrors = 0;
  // Empty-stream retries are the watchdog's own, bounded by the stream error cap, and do not
  // spend the retry budget: nothing was received, so nothing was billed.
  let freeRetries = 0;

  for (let attempt = 1; ; attempt++) {
    const request: ModelRequest = { ...options.request, model: state.model };
    const started = clock.now();
    emitModelRequest({
      emit,
      provider,
      state,
      iteration,
      attempt,
      messageCount: request.messages.length,
      inputTokensEst: estimateTokens(request),
      maxTokens: request.maxTokens,
      background: false,
    });
    const watchdogMs = watchdog.enabled ? watchdog.baseMs + watchdog.perRetryMs * (attempt - 1) : undefined;
    if (watchdogMs !== undefined) emit({ event: 'watchdog_armed', iteration, attempt, window_ms: watchdogMs });

    const outcome = await consumeStream({ provider, request, clock, emit, signal, iteration, attempt, watchdogMs });
    if (outcome.kind === 'complete') {
      state.consecutiveOverloads = 0;
      return {
        message: outcome.assembler.message(),
        usage: outcome.usage,
        stopReason: outcome.stopReason,
        vendorStopReason: outcome.vendorStopReason,
        model: outcome.model,
        attempt,
        latencyMs: clock.now() - started,
        partial: false,
      };
    }
    if (signal.aborted) throw signal.reason;

    const hasContent = outcome.assembler.hasContent;
    const verdict = classifyAndRecord({ emit, error: outcome.error, iteration, attempt, partial: hasContent });
    if (outcome.watchdogFired && watchdogMs !== undefined) {
      emit({ event: 'watchdog_fired', iteration, attempt, window_ms: watchdogMs, outcome: hasContent ? 'partial' : 'empty' });
    }
    streamErrors = outcome.opened || outcome.watchdogFired ? streamErrors + 1 : 0;

    // Partial: keep what arrived and present it; retrying would bill the same output twice.
    if (hasContent && watchdog.enabled) return partialResult(outcome, attempt, clock.now() - started);

    const degraded = noteOverload({ options, category: verdict.category });
    const emptyStall = outcome.watchdogFired && !hasContent;
    const surface = (reason: string, exhausted: boolean): never => {
      throw new ModelCallFailed(
        `${verdict.message} (${verdict.category}; ${reason}; ${attempt} attempt${attempt === 1 ? '' : 's'})`,
        verdict.category,
        attempt,
        exhausted,
      );
    };
    if (watchdog.streamErrorCap > 0 && streamErrors >= watchdog.streamErrorCap) {
      surface(`${streamErrors} consecutive stream errors`, true);
    }
    if (emptyStall) {
      freeRetries += 1;
    } else {
      if (!retry.enabled) surface('retry is off', false);
      if (!verdict.retryable) surface(`not retryable: ${verdict.rule}`, false);
      if (attempt - freeRetries >= maxAttempts) surface(`retry budget of ${retry.maxRetries} spent`, true);
    }

    // An Empty watchdog firing is retried at once: nothing was received, nothing is billed twice.
    const backoff = emptyStall ? { computedMs: 0, jitteredMs: 0 } : computeBackoff({ attempt: attempt - 1 - freeRetries, config: retry, random: options.random });
    const wait = emptyStall
      ? { waitMs: 0, honoured: false, reason: 'empty stream: transparent retry, no backoff' }
      : decideWait({ computedMs: backoff.jitteredMs, retryAfterMs: verdict.retryAfterMs, config: retry });
    emit({
      event: 'retry_scheduled',
      iteration,
      attempt,
      next_attempt: attempt + 1,
      max_attempts: maxAttempts + freeRetries,
      category: verdict.category,
      rung: degraded ? 'degrade' : 'silent_retry',
      computed_delay_ms: Math.round(backoff.jitteredMs),
      ...(verdict.retryAfterMs !== undefined ? { retry_after_ms: verdict.retryAfterMs } : {}),
      wait_ms: Math.round(wait.waitMs),
      reason: wait.reason,
    });
    await clock.sleep(wait.waitMs, signal);
  }
}

/** Counts the overload streak; at the threshold switches to the fallback model (a degrade rung). */
function noteOverload({ options, category }: { options: CallOptions; category: ErrorCategory }): boolean {
  const { state, recovery, emit, iteration } = options;
  if (category !== 'overloaded') {
    state.consecutiveOverloads = 0;
    return false;
  }
  state.consecutiveOverloads += 1;
  const { fallback } = recovery;
  if (!fallback.enabled || state.consecutiveOverloads < fallback.afterOverloads) return false;
  const target = fallback.model || state.fallbackModel;
  if (!target || target === state.model) return false;
  emit({
    event: 'fallback',
    iteration,
    from_model: state.model,
    to_model: target,
    reason: `${state.consecutiveOverloads} consecutive overloaded errors`,
  });
  state.model = target;
  state.consecutiveOverloads = 0;
  return true;
}

function partialResult(outcome: Extract<StreamOutcome, { kind: 'failed' }>, attempt: number, latencyMs: number): CallResult {
  return {
    message: outcome.assembler.message({ dropIncompleteTools: true }),
    usage: outcome.usage,
    stopReason: 'incomplete',
    vendorStopReason: 'interrupted',
    model: outcome.model,
    attempt,
    latencyMs,
    partial: true,
  };
}

const messageEstimates = new WeakMap<Message, number>();

/**
 * Token estimate of a request (for the request event and budgets). Messages are immutable
 * once in the conversation, so each is sized once however many requests carry it.
 */
export function estimateTokens(request: Pick<ModelRequest, 'system' | 'messages'>): number {
  let total = estimateTextTokens(request.system);
  for (const message of request.messages) {
    let n = messageEstimates.get(message);
    if (n === undefined) {
      n = estimateMessage(message);
      messageEstimates.set(message, n);
    }
    total += n;
  }
  return total;
}

function estimateMessage(message: Message): number {
  let total = 0;
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
      case 'thinking':
        total += estimateTextTokens(part.text);
        break;
      case 'tool_call':
        total += estimateTextTokens(part.name) + estimateTextTokens(part.argsText);
        break;
      case 'tool_result':
        total += estimateTextTokens(part.content);
        break;
      case 'redacted_thinking':
        total += estimateTextTokens(part.data);
        break;
    }
  }
  return total;
}

export { costUsd };
