import type { EventOf } from '@/lib/protocol';
import type { RunViewState } from './run-view-state';

/**
 * The vendor SDK's own retry (sdk_retry): one more HTTP request inside the loop's attempt that
 * is open on that turn (foreground or background alike), counted for the run and kept on the
 * attempt, so its card shows how many requests the one attempt really was.
 */
export function foldSdkRetry(s: RunViewState, e: EventOf<'sdk_retry'>): RunViewState {
  const retry = {
    seq: e.seq,
    ts: e.ts,
    requestNo: e.request_no,
    retry: e.retry,
    maxRetries: e.max_retries,
    ...(e.after_status !== undefined ? { afterStatus: e.after_status } : {}),
    waitMs: e.wait_ms,
    formula: e.formula,
  };
  const counted = { ...s, sdkRetries: s.sdkRetries + 1 };
  for (let t = s.turns.length - 1; t >= 0; t--) {
    const turn = s.turns[t]!;
    if (e.iteration !== undefined && turn.iteration !== e.iteration) continue;
    for (let i = turn.attempts.length - 1; i >= 0; i--) {
      const a = turn.attempts[i]!;
      if (a.background !== e.background || a.endTs !== undefined) continue;
      const attempts = turn.attempts.slice();
      attempts[i] = { ...a, sdkRetries: [...(a.sdkRetries ?? []), retry] };
      const turns = s.turns.slice();
      turns[t] = { ...turn, attempts, lastTs: Math.max(turn.lastTs, e.ts) };
      return { ...counted, turns };
    }
    return counted;
  }
  return counted;
}
