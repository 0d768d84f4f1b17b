import type { Clock } from '@/lib/clock';
import type { Message, RecoveryConfig } from '@/lib/protocol';
import type { ProviderAdapter } from '@/lib/providers/types';
import { consumeStream } from './consume-stream';
import type { Emit } from './event-log';
import { classifyAndRecord, emitModelRequest } from './attempt-events';
import { estimateTokens, type CallState } from './model-call';
import { formatMs, isBackgroundRetryable } from './recovery';

export interface BackgroundCallOptions {
  provider: ProviderAdapter;
  system: string;
  messages: Message[];
  maxTokens: number;
  recovery: RecoveryConfig;
  state: CallState;
  clock: Clock;
  emit: Emit;
  signal: AbortSignal;
  iteration: number;
  /** What the call is for, in the events ("title"). */
  purpose: string;
}

/**
 * An auxiliary call (a title, a summary): nobody is waiting on it, so it keeps its own
 * shorter retry account and retries only what is likely to pass soon — network, rate-limit
 * and timeout errors. When it gives up, the run goes on without its result.
 */
export async function backgroundCall(options: BackgroundCallOptions): Promise<string | undefined> {
  const { provider, recovery, state, clock, emit, signal, iteration, purpose } = options;
  const { background } = recovery;
  const maxAttempts = background.enabled ? background.maxRetries + 1 : 1;

  for (let attempt = 1; ; attempt++) {
    emitModelRequest({
      emit,
      provider,
      state,
      iteration,
      attempt,
      messageCount: options.messages.length,
      inputTokensEst: estimateTokens({ system: options.system, messages: options.messages }),
      maxTokens: options.maxTokens,
      background: true,
    });
    const request = { model: state.model, system: options.system, messages: options.messages, tools: [], maxTokens: options.maxTokens, thinking: false };
    const watchdogMs = recovery.watchdog.enabled ? recovery.watchdog.baseMs : undefined;
    const outcome = await consumeStream({ provider, request, clock, emit, signal, iteration, attempt, watchdogMs });
    if (outcome.kind === 'complete') {
      const text = outcome.assembler
        .message()
        .parts.map((p) => (p.type === 'text' ? p.text : ''))
        .join('')
        .trim();
      return text.length > 0 ? text : undefined;
    }
    if (signal.aborted) throw signal.reason;

    const verdict = classifyAndRecord({ emit, error: outcome.error, iteration, attempt, partial: outcome.assembler.hasContent });
    const retryable = background.enabled && verdict.retryable && isBackgroundRetryable(verdict.category);
    if (!retryable || attempt >= maxAttempts) {
      const why = !retryable ? `${verdict.category} is not retried for background calls` : `background budget of ${background.maxRetries} spent`;
      emit({ event: 'log', iteration, level: 'warn', message: `${purpose} skipped: ${why}; the run goes on without it` });
      return undefined;
    }
    const computed = background.baseDelayMs * 2 ** (attempt - 1);
    const waitMs = Math.min(verdict.retryAfterMs ?? computed, recovery.retry.retryAfterCapMs);
    emit({
      event: 'retry_scheduled',
      iteration,
      attempt,
      next_attempt: attempt + 1,
      max_attempts: maxAttempts,
      category: verdict.category,
      rung: 'silent_retry',
      computed_delay_ms: computed,
      ...(verdict.retryAfterMs !== undefined ? { retry_after_ms: verdict.retryAfterMs } : {}),
      wait_ms: waitMs,
      reason: `background ${purpose}: retry in ${formatMs(waitMs)}`,
    });
    await clock.sleep(waitMs, signal);
  }
}
