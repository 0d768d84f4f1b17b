import { BACKGROUND_RETRIED, type ErrorCategory } from '@/lib/protocol';

/**
 * Auxiliary calls (summaries, titles) keep their own, shorter retry account and retry only
 * the plainly transient categories: retrying them on anything else would spend the main
 * loop's quota on work that can be skipped ("retry amplification"). The set lives with the
 * other retry rules (lib/protocol/retry-rules.ts), which the background account decides by.
 */
export function isBackgroundRetryable(category: ErrorCategory): boolean {
  return BACKGROUND_RETRIED.has(category);
}
