import type { ErrorCategory, Message, RecoveryConfig, StopReason } from '@/lib/protocol';
import { costUsd, policyOf } from '@/lib/protocol';
import type { ModelRequest, StreamPart } from '@/lib/providers/types';
import { estimateRequestTokens } from '@/lib/tokens/estimate-request-tokens';
import { countTokens } from '@/lib/tokens/count-tokens';
import { consumeStream, type StreamOutcome, type Usage } from './consume-stream';
import type { ProviderBinding, RunBinding } from './binding';
import type { EngineDeps } from './engine-deps';
import { classifyAndRecord, emitModelRequest } from './attempt-events';
import { foregroundAccount, retry, type AttemptOutcome } from './retry';
import {
  contextWindowMove,
  createFallbackChainState,
  noteFailure,
  noteSuccess,
  returnFromCooldown,
  type ChainOptions,
  type FallbackChainState,
} from './retry/fallback-chain';
import { capForModel } from './output/output-cap';
import type { MechanismHost } from './mechanism-host';

/** A model call that could not be recovered: the error surfaces with every attempt made. */
export class ModelCallFailed extends Error {
  constructor(
    message: string,
    readonly category: ErrorCategory,
    readonly attempts: number,
    readonly exhausted: boolean,
    /** The failure came after the response stream opened (an in-stream error). */
    readonly opened = false,
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

/** State that outlives one call: the run's overload streak and its request count. */
export interface CallState {
  consecutiveOverloads: number;
  requestNo: number;
  /** The run's attempt budget: requests of any kind (budgets.maxAttempts). */
  maxAttempts: number;
  /** The retry policy's model moves: cooldowns, the context-window fallback (made at the run's first call). */
  chain?: FallbackChainState;
}

export interface CallOptions extends EngineDeps {
  /** The run's binding: the provider and model each attempt goes to (a fallback changes it). */
  binding: RunBinding;
  request: Omit<ModelRequest, 'model'>;
  recovery: RecoveryConfig;
  state: CallState;
  iteration: number;
  /**
   * Cross-vendor fallback: moves the run to another vendor (a swap) and returns the new
   * binding; undefined when the swap cannot be made.
   */
  rebind?: (target: { vendor: string; model: string; reason: string }) => ProviderBinding | undefined;
  /** Whether a context overflow this call gives up on is taken by the context channel (else it surfaces). */
  overflowHandled?: boolean;
  /** The run's mechanisms on the port: each stream part is shown to them, each failure asked about (onError). */
  mechanisms?: MechanismHost;
}

/**
 * One model call and its retry ladder: each attempt is classified, then the shared retry
 * function decides on the foreground account — silent retry (with backoff, or at once for an
 * Empty watchdog firing), degrade (fallback model after consecutive overloads), or surface
 * with every attempt listed.
 */
export async function callModel(options: CallOptions): Promise<CallResult> {
  const { binding, recovery, state, clock, emit, signal, iteration } = options;
  const { watchdog } = recovery;
  let streamErrors = 0;
  let lastOpened = false;
  const account = foregroundAccount(recovery);
  const chain: ChainOptions = {
    binding,
    policy: policyOf(recovery),
    state: (state.chain ??= createFallbackChainState(binding)),
    streak: state,
    iteration,
    clock,
    emit,
    ...(options.rebind ? { rebind: options.rebind } : {}),
  };

  const attemptOnce = async (attempt: number): Promise<AttemptOutcome<CallResult>> => {
    // A model whose cooldown has ended takes the call back (only with a cooldown in the policy).
    returnFromCooldown(chain);
    // Read at each attempt: a fallback between two attempts changes the model, or the vendor too.
    const { provider } = binding;
    const cap = capForModel(options.request.maxTokens, binding.model);
    const request: ModelRequest = { ...options.request, model: binding.model, maxTokens: cap.maxTokens };
    const started = clock.now();
    emitModelRequest({
      capClampedFrom: cap.clampedFrom,
      emit,
      binding,
      state,
      iteration,
      attempt,
      messageCount: request.messages.length,
      inputTokensEst: estimateRequestTokens(request),
      maxTokens: request.maxTokens,
      background: false,
    });
    const watchdogMs = watchdog.enabled ? watchdog.baseMs + watchdog.perRetryMs * (attempt - 1) : undefined;
    if (watchdogMs !== undefined)
      emit({ event: 'watchdog_armed', iteration, attempt, window_ms: watchdogMs });

    const outcome = await consumeStream({
      provider,
      request,
      clock,
      emit,
      signal,
      iteration,
      attempt,
      watchdogMs,
      probe: options.probe,
      ...(options.mechanisms?.watchesStream
        ? { watch: (part: StreamPart) => options.mechanisms!.onStreamPart(iteration, part) }
        : {}),
    });
    if (outcome.kind === 'complete') {
      state.consecutiveOverloads = 0;
      noteSuccess(chain.state, binding.model);
      return { ok: true, value: completeResult(outcome, attempt, clock.now() - started) };
    }
    if (signal.aborted) throw signal.reason;

    const hasContent = outcome.assembler.hasContent;
    const verdict = classifyAndRecord({
      emit,
      error: outcome.error,
      iteration,
      attempt,
      partial: hasContent,
    });
    if (outcome.watchdogFired && watchdogMs !== undefined) {
      emit({
        event: 'watchdog_fired',
        iteration,
        attempt,
        window_ms: watchdogMs,
        outcome: hasContent ? 'partial' : 'empty',
      });
    }
    // The port's onError: a mechanism may give up on the call (its event says why); the error surfaces.
    const giveUp = options.mechanisms?.onError(iteration, {
      category: verdict.category,
      message: verdict.message,
      attempt,
      partial: hasContent,
      consecutiveOverloads: verdict.category === 'overloaded' ? state.consecutiveOverloads + 1 : 0,
    });
    if (giveUp) {
      throw new ModelCallFailed(
        `${verdict.message} (${verdict.category}; ${giveUp.message}; ${attempt} attempt${attempt === 1 ? '' : 's'})`,
        verdict.category,
        attempt,
        false,
        outcome.opened,
      );
    }
    streamErrors = outcome.opened || outcome.watchdogFired ? streamErrors + 1 : 0;
    lastOpened = outcome.opened;

    // Partial: keep what arrived and present it; retrying would bill the same output twice.
    // A context overflow is not a Partial: it goes to the context channel wherever it arrived.
    if (hasContent && watchdog.enabled && verdict.category !== 'context_length') {
      emit({
        event: 'retry_declined',
        iteration,
        attempt,
        account: account.name,
        category: verdict.category,
        rule: 'partial_kept',
        attempts: attempt,
        max_attempts: account.maxRetries + 1,
        next: 'keep_partial',
        why: 'No retry — content had arrived before the stream failed: what arrived is kept as the answer (an incomplete tool call is dropped), since a retry would bill it twice.',
      });
      return { ok: true, value: partialResult(outcome, attempt, clock.now() - started) };
    }

    // A context overflow with a larger-window model in the policy: the run moves there, and the
    // same request goes again at once, before the context channel compacts anything.
    if (verdict.category === 'context_length') {
      const moved = contextWindowMove(chain);
      if (moved) return { ok: false, verdict, rung: 'degrade', move: moved };
    }
    const degraded = noteFailure(chain, verdict.category);
    const rung = degraded ? 'degrade' : 'silent_retry';
    if (watchdog.enabled && streamErrors >= watchdog.streamErrorCap) {
      return { ok: false, verdict, rung, stop: `${streamErrors} consecutive stream errors` };
    }
    // An Empty watchdog firing is retried at once (nothing was received, nothing is billed
    // twice), but it spends the same retry budget as any other failure.
    if (outcome.watchdogFired && !hasContent) {
      return { ok: false, verdict, rung, immediate: 'empty stream: transparent retry, no backoff' };
    }
    return { ok: false, verdict, rung };
  };

  const result = await retry({
    account,
    attempt: attemptOnce,
    clock,
    random: options.random,
    emit,
    signal,
    iteration,
    onDecline: (verdict) =>
      verdict.category === 'context_length' && options.overflowHandled
        ? { next: 'context_channel', then: 'the context channel takes the overflow' }
        : { next: 'surface', then: 'the error surfaces and the run ends' },
  });
  if (result.ok) return result.value;
  const { verdict, attempts } = result;
  throw new ModelCallFailed(
    `${verdict.message} (${verdict.category}; ${result.why}; ${attempts} attempt${attempts === 1 ? '' : 's'})`,
    verdict.category,
    attempts,
    result.exhausted,
    lastOpened,
  );
}

/** What a stream that ran to its stop reason gives the loop. */
export function completeResult(
  outcome: Extract<StreamOutcome, { kind: 'complete' }>,
  attempt: number,
  latencyMs: number,
): CallResult {
  return {
    message: outcome.assembler.message(),
    usage: outcome.usage,
    stopReason: outcome.stopReason,
    vendorStopReason: outcome.vendorStopReason,
    model: outcome.model,
    attempt,
    latencyMs,
    partial: false,
  };
}

function partialResult(
  outcome: Extract<StreamOutcome, { kind: 'failed' }>,
  attempt: number,
  latencyMs: number,
): CallResult {
  return {
    message: outcome.assembler.message({ dropIncompleteTools: true }),
    usage: partialUsage(outcome),
    stopReason: 'incomplete',
    vendorStopReason: 'interrupted',
    model: outcome.model,
    attempt,
    latencyMs,
    partial: true,
  };
}

/**
 * A Partial's usage. The vendors report output tokens at the end of a stream (Anthropic's
 * message_delta, OpenAI's last chunk), which a cut stream never reaches; then the tokens that
 * did arrive — text, thinking, tool names and arguments, the dropped incomplete call's too, since
 * it was streamed — are counted with the one tokenizer the simulated vendors bill with, and the
 * usage says it was counted. A count the vendor did send stands.
 */
function partialUsage(outcome: Extract<StreamOutcome, { kind: 'failed' }>): Usage {
  if (outcome.usage.outputTokens > 0) return outcome.usage;
  let counted = 0;
  for (const part of outcome.assembler.message().parts) {
    if (part.type === 'text') counted += countTokens(part.text);
    else if (part.type === 'thinking') counted += countTokens(part.text);
    else if (part.type === 'tool_call') counted += countTokens(part.name) + countTokens(part.argsText);
  }
  return { ...outcome.usage, outputTokens: counted, outputCounted: true };
}

export { costUsd };
