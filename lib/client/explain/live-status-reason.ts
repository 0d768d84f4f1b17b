import { formatMs } from '@/lib/run-view/format';
import type { RunStatus } from '@/lib/run-view/run-view-state';
import { WAITING_LEAD } from '@/lib/run-view/explain/describe-run';

/** Below this much silence a stream is just between deltas; past it, the header says so. */
export const QUIET_NOTICE_MS = 1_000;

/**
 * The header's reason brought up to the run clock's `now`. The reducer writes a reason when
 * an event arrives ("waiting 7 s: 429 rate limited, then attempt 2 of 4"), but between
 * events time runs on: a wait counts down ("waiting 4.2 s more of 7 s: …"), and a stream
 * that has sent no content for a while says for how long, so a stall does not read as
 * "streaming" while nothing arrives. Keepalives are not content (the watchdog ignores them
 * too), so they do not shorten the silence.
 */
export function liveStatusReason(input: {
  status: RunStatus;
  reason: string;
  now: number;
  /** The retry wait in progress (scheduled, next request not yet sent). */
  pendingWait?: { ts: number; waitMs: number } | undefined;
  /** When the open attempt's watchdog last saw content (armed, not fired). */
  quietSince?: number | undefined;
}): string {
  const { status, reason, now, pendingWait, quietSince } = input;
  if (status === 'waiting' && pendingWait && WAITING_LEAD.test(reason)) {
    const left = Math.max(0, pendingWait.ts + pendingWait.waitMs - now);
    return reason.replace(WAITING_LEAD, `waiting ${formatMs(left)} more of ${formatMs(pendingWait.waitMs)}:`);
  }
  if (status === 'running' && quietSince !== undefined && now - quietSince >= QUIET_NOTICE_MS) {
    return `${reason} · no content for ${formatMs(now - quietSince)}`;
  }
  return reason;
}
