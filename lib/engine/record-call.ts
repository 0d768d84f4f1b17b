/** A model call that got an answer, as an llm_call event counted in the run's tokens and cost. */
import type { RunTotals } from '@/lib/protocol';
import { cacheSavingUsd, costUsd } from '@/lib/protocol';
import type { RunBinding } from './binding';
import type { CallResult } from './model-call';
import type { LoopOptions } from './run-loop';

/**
 * The dollars a cost budget has seen spent: a run's own calls and every nested loop's under it
 * (LoopOptions.costAccount), one object the whole tree adds to.
 */
export interface CostAccount {
  usd: number;
}

/**
 * Every model call that got an answer — foreground or background — is an llm_call in the
 * log and counts in the run's tokens and cost (the course traces every LLM call).
 */
export function recordCall({
  options,
  binding,
  totals,
  iteration,
  result,
  purpose,
}: {
  options: LoopOptions;
  binding: RunBinding;
  totals: RunTotals;
  iteration: number;
  result: CallResult;
  purpose?: string;
}): void {
  const cached = result.usage.cachedInput;
  const usd = costUsd(result.model, result.usage.inputTokens, result.usage.outputTokens, cached);
  totals.inputTokens += result.usage.inputTokens;
  totals.outputTokens += result.usage.outputTokens;
  totals.usd += usd;
  if (options.costAccount) options.costAccount.usd += usd;
  options.emit({
    event: 'llm_call',
    iteration,
    attempt: result.attempt,
    vendor: binding.provider.vendor,
    model: result.model,
    input_tokens: result.usage.inputTokens,
    output_tokens: result.usage.outputTokens,
    ...(result.usage.outputCounted ? { output_tokens_counted: true as const } : {}),
    ...(cached
      ? {
          cache_read_tokens: cached.read,
          cache_write_tokens: cached.written,
          cache_saved_usd: cacheSavingUsd(result.model, result.usage.inputTokens, cached),
        }
      : {}),
    usd: round6(usd),
    usd_so_far: round6(totals.usd),
    stop_reason: result.stopReason,
    vendor_stop_reason: result.vendorStopReason,
    latency_ms: Math.round(result.latencyMs),
    ...(result.partial ? { partial: true } : {}),
    message: result.message,
    ...(purpose ? { background: true, purpose } : {}),
  });
}

/** A dollar amount to the millionth, as the log writes it. */
export function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
