import type { RetryDeclinedRule } from '@/lib/protocol';
import type { AttemptView } from '@/lib/run-view/run-view-state';

const RULE_NOTE: Record<RetryDeclinedRule, string> = {
  partial_kept: ' · kept, not retried',
  retry_off: ' · retry off',
  not_retryable: ' · final',
  category_not_retried: ' · not retried here',
  budget_spent: ' · no retries left',
  stream_error_cap: ' · stream error cap',
};

/**
 * What a ladder step says after its error's category, read from the call's own decision
 * (`retry_declined`): " · no retries left" when the budget was spent, " · final" when the
 * classifier ruled the error out, and so on. An attempt that was retried, or whose decision
 * has not arrived, says nothing extra: nothing here guesses what the engine will do.
 */
export function ladderErrorNote(attempt: Pick<AttemptView, 'declined'>): string {
  return attempt.declined ? RULE_NOTE[attempt.declined.rule] : '';
}
