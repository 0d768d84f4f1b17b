import { findModel } from '@/lib/protocol';

/** Anthropic rejects a thinking budget under 1024 tokens. */
export const MIN_THINKING_BUDGET = 1024;
/** Past this, more budget buys little in a tool loop and only delays the first tool call. */
const MAX_THINKING_BUDGET = 16_000;

/**
 * A thinking budget for a response capped at `maxTokens`: half of it, within the vendor's
 * bounds, and always below `maxTokens` as the API requires. Undefined when even the
 * minimum budget would not fit.
 */
export function thinkingBudget(options: { maxTokens: number }): number | undefined {
  const { maxTokens } = options;
  const budget = Math.min(MAX_THINKING_BUDGET, Math.max(MIN_THINKING_BUDGET, Math.floor(maxTokens / 2)));
  return budget < maxTokens ? budget : undefined;
}

/**
 * Whether a model emits thinking. Unknown models count as not reasoning: asking a model
 * that cannot think for thinking is a 400, while not asking only costs the reasoning.
 */
export function modelReasons(options: { model: string }): boolean {
  return findModel(options.model)?.reasoning ?? false;
}
