import type { AttemptView } from '@/lib/run-view/run-view-state';

/** One auxiliary call (title, summary) and its attempts, apart from the turn's own call. */
export interface BackgroundCallView {
  /** The request number of its first attempt: stable across updates. */
  key: number;
  purpose: string;
  attempts: readonly AttemptView[];
  /** The attempt that answered, if any. */
  answered?: AttemptView;
  /** Still in flight (the run has not ended and the last attempt is open or waiting to retry). */
  open: boolean;
}

/**
 * Splits a turn's background attempts into calls: a call starts at attempt 1 (each call keeps
 * its own retry count on its own account), so its attempts and failures are never counted as
 * the turn's.
 */
export function groupBackgroundCalls(
  attempts: readonly AttemptView[],
  runEnded: boolean,
): BackgroundCallView[] {
  const calls: BackgroundCallView[] = [];
  for (const a of attempts) {
    if (!a.background) continue;
    const current = calls[calls.length - 1];
    if (!current || a.attempt === 1) {
      calls.push({ key: a.requestNo, purpose: 'background', attempts: [a], open: false });
    } else {
      current.attempts = [...current.attempts, a];
    }
  }
  for (const call of calls) {
    call.answered = call.attempts.find((a) => a.result !== undefined);
    call.purpose = call.answered?.result?.purpose ?? call.purpose;
    const last = call.attempts[call.attempts.length - 1]!;
    call.open = !runEnded && !call.answered && (last.endTs === undefined || last.retry !== undefined);
  }
  return calls;
}
