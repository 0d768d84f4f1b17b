import type { Message, RecoveryConfig } from '@/lib/protocol';
import type { ModelRequest } from '@/lib/providers/types';
import { estimateRequestTokens } from '@/lib/tokens/estimate-request-tokens';
import { consumeStream } from './consume-stream';
import type { RunBinding } from './binding';
import type { EngineDeps } from './engine-deps';
import { classifyAndRecord, emitModelRequest } from './attempt-events';
import { completeResult, type CallResult, type CallState } from './model-call';
import { backgroundAccount, retry } from './retry';
import { RunBudgetExceeded } from './run-budget';

export interface BackgroundCallOptions extends EngineDeps {
  /** The run's binding: the call goes to the provider and model in force. */
  binding: RunBinding;
  system: string;
  messages: Message[];
  maxTokens: number;
  recovery: RecoveryConfig;
  state: CallState;
  iteration: number;
  /** What the call is for, in the events ("title", "summary"). */
  purpose: string;
}

/**
 * An auxiliary call (a title, a summary): nobody is waiting on it, so it goes through the
 * shared retry function on the background account — fewer retries, and only for what is
 * likely to pass soon (network, rate-limit, timeout). When it gives up, the run goes on
 * without its result (undefined) and a log event says why.
 */
export async function backgroundCall(options: BackgroundCallOptions): Promise<CallResult | undefined> {
  const { binding, recovery, state, clock, emit, signal, iteration, purpose } = options;
  let result;
  try {
    result = await retry<CallResult>({
      account: backgroundAccount(recovery),
      clock,
      random: options.random,
      emit,
      signal,
      iteration,
      label: `background ${purpose}`,
      onDecline: () => ({
        next: 'skip_call',
        then: `the ${purpose} is skipped and the run goes on without it`,
      }),
      attempt: async (attempt) => {
        const request: ModelRequest = {
          model: binding.model,
          system: options.system,
          messages: options.messages,
          tools: [],
          maxTokens: options.maxTokens,
          thinking: false,
          promptCaching: recovery.cache.promptCaching,
        };
        const started = clock.now();
        const { provider } = binding;
        emitModelRequest({
          emit,
          binding,
          state,
          iteration,
          attempt,
          messageCount: request.messages.length,
          inputTokensEst: estimateRequestTokens(request),
          maxTokens: request.maxTokens,
          background: true,
        });
        const watchdogMs = recovery.watchdog.enabled ? recovery.watchdog.baseMs : undefined;
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
        });
        if (outcome.kind === 'complete') {
          return { ok: true, value: completeResult(outcome, attempt, clock.now() - started) };
        }
        if (signal.aborted) throw signal.reason;
        const verdict = classifyAndRecord({
          emit,
          error: outcome.error,
          iteration,
          attempt,
          partial: outcome.assembler.hasContent,
        });
        return { ok: false, verdict };
      },
    });
  } catch (error) {
    // A background call never ends the run: with the attempt budget spent it is skipped.
    if (!(error instanceof RunBudgetExceeded) || error.reason !== 'attempt_budget') throw error;
    emit({
      event: 'log',
      iteration,
      level: 'warn',
      message: `${purpose} skipped: the run's attempt budget of ${state.maxAttempts} is spent`,
    });
    return undefined;
  }
  if (result.ok) return result.value;
  emit({
    event: 'log',
    iteration,
    level: 'warn',
    message: `${purpose} skipped: ${result.why}; the run goes on without it`,
  });
  return undefined;
}

/** The text of a background answer, trimmed; undefined when it said nothing. */
export function answerText(result: CallResult | undefined): string | undefined {
  const text = result?.message.parts
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('')
    .trim();
  return text ? text : undefined;
}
