import { QUIET_NOTICE_MS } from './live-status-reason';
import type { AttemptView, RunStatus, TurnView } from '@/lib/run-view/run-view-state';

const FINISHED: ReadonlySet<RunStatus> = new Set<RunStatus>(['done', 'failed', 'aborted']);

type LabelAttempt = Pick<AttemptView, 'background' | 'endTs' | 'outcome' | 'vendor' | 'model' | 'keepalives'>;
type LabelTurn = Pick<TurnView, 'result'> & { attempts: readonly LabelAttempt[] };

/**
 * The run header's label for the vendor and model it shows (the ones asked last, or next).
 * It says only what is true at that moment. While the run lives: "answering now" only while
 * that vendor's response is streaming and content arrives ("stream open, silent" once nothing
 * has come for QUIET_NOTICE_MS, as in a stall the watchdog is timing); "asked, no reply yet" between the request and its
 * first byte ("stream open, keepalives only" once keepalives come and no content); "retrying with" during a retry wait, when nobody is answering; "last answered
 * by" between turns (tools running) when the shown vendor and model gave the last response;
 * otherwise "asking next" (a swap or fallback chose them and they have not been asked yet),
 * or "asking first" before the run's first request.
 * Once the run has ended: "last answered by" only if that vendor and model did answer — a run
 * whose every attempt failed, or whose takeover target never answered, says "last asked".
 */
export function vendorStatLabel(options: {
  status: RunStatus;
  vendor?: string;
  model?: string;
  turns: readonly LabelTurn[];
  /** Run time since the open stream last brought content (its watchdog's last reset), if one is open. */
  quietMs?: number | undefined;
}): string {
  const { status, vendor, model, turns, quietMs } = options;
  if (FINISHED.has(status)) return answeredLast(options) ? 'last answered by' : 'last asked';
  if (status === 'idle') return 'vendor'; // not started, or its events not loaded yet
  const latest = latestForeground(turns);
  if (!latest) return 'asking first';
  const shown = latest.vendor === vendor && latest.model === model;
  if (latest.endTs === undefined && shown) {
    // Keepalives (their own events) prove the stream is open, though no content has come on it.
    if (latest.outcome !== 'streaming')
      return latest.keepalives?.count ? 'stream open, keepalives only' : 'asked, no reply yet';
    return quietMs !== undefined && quietMs >= QUIET_NOTICE_MS ? 'stream open, silent' : 'answering now';
  }
  if (status === 'waiting') return 'retrying with';
  return answeredLast(options) && latest.outcome !== 'error' && latest.outcome !== 'watchdog'
    ? 'last answered by'
    : 'asking next';
}

/** The newest turn with a kept response came from the vendor and model shown. */
function answeredLast(options: { vendor?: string; model?: string; turns: readonly LabelTurn[] }): boolean {
  for (let i = options.turns.length - 1; i >= 0; i--) {
    const result = options.turns[i]!.result;
    if (!result) continue;
    if (result.vendor === undefined) return true; // an imported trace that does not say
    return result.vendor === options.vendor && result.model === options.model;
  }
  return false;
}

function latestForeground(turns: readonly LabelTurn[]): LabelAttempt | undefined {
  for (let t = turns.length - 1; t >= 0; t--) {
    const { attempts } = turns[t]!;
    for (let i = attempts.length - 1; i >= 0; i--) if (!attempts[i]!.background) return attempts[i];
  }
  return undefined;
}
