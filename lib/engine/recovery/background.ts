import type { ErrorCategory } from '@/lib/protocol';

const BACKGROUND_RETRYABLE: ReadonlySet<ErrorCategory> = new Set(['network', 'rate_limit', 'timeout']);

/**
 * Auxiliary calls (summaries, titles) keep their own, shorter retry account and retry only
 * the plainly transient categories: retrying them on anything else would spend the main
 * loop's quota on work that can be skipped ("retry amplification").
 */
export function isBackgroundRetryable(category: ErrorCategory): boolean {
  return BACKGROUND_RETRYABLE.has(category);
}
