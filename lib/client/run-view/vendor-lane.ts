import type { RunStoreState } from './run-store';
import type { TurnView } from '@/lib/run-view/run-view-state';

/** A stretch of consecutive turns answered by one vendor and model. */
export interface VendorSegment {
  vendor: string;
  model: string;
  fromTurn: number;
  toTurn: number;
  startTs: number;
  endTs: number;
}

/** Who answered a turn: its kept response, else its latest foreground attempt. */
function answeredBy(turn: TurnView): { vendor: string; model: string } | undefined {
  if (turn.result?.vendor && turn.result.model)
    return { vendor: turn.result.vendor, model: turn.result.model };
  for (let i = turn.attempts.length - 1; i >= 0; i--) {
    const a = turn.attempts[i]!;
    if (!a.background) return { vendor: a.vendor, model: a.model };
  }
  return undefined;
}

/**
 * The vendor lane: which vendor and model produced each turn, as segments on the run's time
 * axis (a segment runs from its first turn's start to the next segment's start, or now).
 * As a string, so the lane re-renders only when a segment changes.
 */
export const selectVendorLane = (s: RunStoreState): string => {
  const segments: VendorSegment[] = [];
  for (const turn of s.view.turns) {
    const by = answeredBy(turn);
    if (!by) continue;
    const last = segments[segments.length - 1];
    if (last && last.vendor === by.vendor && last.model === by.model) {
      last.toTurn = turn.iteration;
      continue;
    }
    if (last) last.endTs = turn.startTs;
    segments.push({
      ...by,
      fromTurn: turn.iteration,
      toTurn: turn.iteration,
      startTs: turn.startTs,
      endTs: -1,
    });
  }
  const last = segments[segments.length - 1];
  if (last) last.endTs = s.view.terminate?.ts ?? s.view.clockTs;
  return JSON.stringify(segments);
};

/**
 * The lane as drawn at `nowTs` (the live run clock): the selector ends the last segment at
 * the latest event, but during a stall no event arrives while the vendor is still the one
 * being asked, so the last segment runs on with the clock the attempt bars follow.
 */
export function parseVendorLane(key: string, nowTs = 0): VendorSegment[] {
  const segments = JSON.parse(key) as VendorSegment[];
  const last = segments[segments.length - 1];
  if (last && nowTs > last.endTs) last.endTs = nowTs;
  return segments;
}
