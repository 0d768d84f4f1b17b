import type { ProviderBinding } from './binding';
import type { Emit } from './event-log';
import type { CallState } from './model-call';
import { classifyError, type Classification } from './recovery';
import { describeAttemptBudget, RunBudgetExceeded } from './run-budget';

/** Whether the run's attempt budget (every model request, foreground and background) has room. */
export function attemptsLeft(state: CallState): boolean {
  return state.requestNo < state.maxAttempts;
}

/**
 * Starts one HTTP attempt: counts it against the run's attempt budget and records the
 * request (foreground or background). A spent budget ends the run (RunBudgetExceeded).
 */
export function emitModelRequest(options: {
  emit: Emit;
  /** The binding in force: the vendor and model the request goes to. */
  binding: ProviderBinding;
  state: CallState;
  iteration: number;
  attempt: number;
  messageCount: number;
  inputTokensEst: number;
  maxTokens: number;
  /** The configured cap, when the model's own output limit lowered it to `maxTokens`. */
  capClampedFrom?: number;
  background: boolean;
}): void {
  const { emit, binding, state } = options;
  if (!attemptsLeft(state))
    throw new RunBudgetExceeded('attempt_budget', describeAttemptBudget(state.maxAttempts));
  state.requestNo += 1;
  emit({
    event: 'model_request',
    iteration: options.iteration,
    attempt: options.attempt,
    request_no: state.requestNo,
    vendor: binding.provider.vendor,
    model: binding.model,
    message_count: options.messageCount,
    input_tokens_est: options.inputTokensEst,
    max_tokens: options.maxTokens,
    ...(options.capClampedFrom !== undefined
      ? {
          max_tokens_configured: options.capClampedFrom,
          max_tokens_why: `the configured output cap of ${options.capClampedFrom.toLocaleString('en-US')} is above ${binding.model}'s own limit: the request asks for ${options.maxTokens.toLocaleString('en-US')}, the most the vendor accepts`,
        }
      : {}),
    background: options.background,
  });
}

/** Classifies a failed attempt (one classifier for every call) and records the verdict. */
export function classifyAndRecord(options: {
  emit: Emit;
  error: unknown;
  iteration: number;
  attempt: number;
  partial: boolean;
}): Classification {
  const verdict = classifyError(options.error);
  options.emit({
    event: 'model_error',
    iteration: options.iteration,
    attempt: options.attempt,
    message: verdict.message,
    ...(verdict.status !== undefined ? { status: verdict.status } : {}),
    ...(verdict.vendorType !== undefined ? { vendor_type: verdict.vendorType } : {}),
    category: verdict.category,
    rule: verdict.rule,
    retryable: verdict.retryable,
    partial: options.partial,
  });
  return verdict;
}
