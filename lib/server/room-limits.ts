import 'server-only';
import { serverEnv } from '@/lib/config/server-env';
import { getVisitorStore } from '@/lib/store';
import { RoomLimitError } from './http-error';

/**
 * Room mode's fair shares, per visitor: how many runs may be live at once, how many may start a
 * minute (a token bucket that refills continuously), and how many runs one sweep may hold. A
 * server policy on requests, not part of any run: the bucket reads the wall clock, and nothing
 * it decides is recorded in a run. Outside room mode (`visitor` null) nothing is limited.
 */

/** What a live-runs 429 suggests waiting: a lesson's runs end in seconds; it is a hint, not a promise. */
const LIVE_RUNS_RETRY_SECONDS = 5;

interface Bucket {
  tokens: number;
  at: number;
}

const globalForLimits = globalThis as typeof globalThis & { __loopLabRoomLimits?: Map<string, Bucket> };

function buckets(): Map<string, Bucket> {
  globalForLimits.__loopLabRoomLimits ??= new Map();
  return globalForLimits.__loopLabRoomLimits;
}

/**
 * Admits `count` runs the visitor is about to start (a lesson starts two, or three with its
 * parent), or throws the 429 of the first limit they would pass. Takes the tokens only when
 * every limit admits them. `now`: wall-clock ms (tests pass their own).
 */
export async function admitRuns(visitor: string | null, count = 1, now = Date.now()): Promise<void> {
  if (visitor === null) return;
  const { liveRuns, runsPerMinute } = serverEnv().roomLimits;
  const live = await getVisitorStore().runningRunsOf(visitor);
  if (live + count > liveRuns) {
    throw new RoomLimitError(
      `Room limit: at most ${liveRuns} live run${liveRuns === 1 ? '' : 's'} per visitor ` +
        `(you have ${live}, this starts ${count}); try again when one ends`,
      {
        name: 'liveRuns',
        variable: 'LOOP_LAB_ROOM_LIVE_RUNS',
        value: liveRuns,
        retryAfterSeconds: LIVE_RUNS_RETRY_SECONDS,
      },
    );
  }
  const perMs = runsPerMinute / 60_000;
  const held = buckets().get(visitor) ?? { tokens: runsPerMinute, at: now };
  const tokens = Math.min(runsPerMinute, held.tokens + (now - held.at) * perMs);
  if (tokens < count) {
    const retryAfterSeconds = Math.max(1, Math.ceil((count - tokens) / perMs / 1000));
    buckets().set(visitor, { tokens, at: now });
    throw new RoomLimitError(
      `Room limit: at most ${runsPerMinute} runs started per minute per visitor; try again in ${retryAfterSeconds} s`,
      {
        name: 'runsPerMinute',
        variable: 'LOOP_LAB_ROOM_RUNS_PER_MIN',
        value: runsPerMinute,
        retryAfterSeconds,
      },
    );
  }
  buckets().set(visitor, { tokens: tokens - count, at: now });
}

/** Refuses a sweep of more runs than a visitor's sweep may hold (waiting does not help: no Retry-After). */
export function admitSweep(visitor: string | null, runs: number): void {
  if (visitor === null) return;
  const { sweepRuns } = serverEnv().roomLimits;
  if (runs > sweepRuns) {
    throw new RoomLimitError(
      `Room limit: a sweep may hold at most ${sweepRuns} runs per visitor (this grid makes ${runs}); make the grid smaller`,
      { name: 'sweepRuns', variable: 'LOOP_LAB_ROOM_SWEEP_RUNS', value: sweepRuns },
    );
  }
}
