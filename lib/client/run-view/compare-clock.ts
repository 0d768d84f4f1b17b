'use client';

import { useCallback, useSyncExternalStore } from 'react';
import type { AlignedTurn, CompareSide, Comparison, TurnSide } from '@/lib/protocol/http/compare';
import { wallTicker } from '../hooks/wall-ticker';

const noSubscription = () => () => undefined;

/**
 * A compared side's run clock now, in run ms. The answer says where the run's clock stood at
 * its latest event (`clockTs`); a live real- or paced-clock run goes on between answers — a retry's wait
 * or a stalled stream writes nothing for seconds — so its clock moves on by wall time / time
 * scale from when the answer arrived. A finished or virtual-clock side stays at its latest event.
 * Once the side's terminate is known (`endMs`, its run time, read off the stream) the clock
 * stops there: counting on until the re-read answers would show run time the run never had.
 */
export function sideClockNow(
  side: Pick<CompareSide, 'running' | 'clock' | 'timeScale' | 'clockTs'>,
  receivedAt: number,
  wallNow: number,
  endMs: number | null = null,
): number {
  // The terminate seen on the side's stream, before the re-read that says so: its clock stopped there.
  if (side.running && endMs !== null) return Math.max(side.clockTs, endMs);
  if (!side.running || side.clock === 'virtual' || receivedAt === 0) return side.clockTs;
  const scale = side.timeScale > 0 ? side.timeScale : 1;
  return side.clockTs + Math.max(0, wallNow - receivedAt) / scale;
}

/**
 * The comparison with a live side's times read at its clock now: its run time so far and the
 * duration so far of its turn in progress. Rows with nothing live are the same objects, so a
 * memoised row does not redraw on every tick.
 */
export function comparisonAt(c: Comparison, now: { a: number; b: number }): Comparison {
  const live = { a: c.a.running, b: c.b.running };
  if (!live.a && !live.b) return c;
  const inProgress = (side: TurnSide | null, which: 'a' | 'b'): TurnSide | null =>
    side && live[which] && !side.finished
      ? { ...side, durationMs: Math.max(side.durationMs, now[which] - side.startMs) }
      : side;
  const turns = c.turns.map((row): AlignedTurn => {
    const a = inProgress(row.a, 'a');
    const b = inProgress(row.b, 'b');
    return a === row.a && b === row.b ? row : { ...row, a, b };
  });
  const totals = c.totals.map((row) =>
    row.id === 'durationMs'
      ? {
          ...row,
          a: live.a ? Math.max(Number(row.a ?? 0), now.a) : row.a,
          b: live.b ? Math.max(Number(row.b ?? 0), now.b) : row.b,
        }
      : row,
  );
  return { ...c, turns, totals };
}

/** A side's terminate run time, known from its stream before the comparison's re-read says it ended. */
export type SideEnds = { a: number | null; b: number | null };

/** The comparison as it stands now, moving with the page's one wall ticker while a real- or paced-clock side runs. */
export function useComparisonNow(
  c: Comparison,
  receivedAt: number,
  ends: SideEnds = { a: null, b: null },
): Comparison {
  const ticking =
    (c.a.running && c.a.clock !== 'virtual' && ends.a === null) ||
    (c.b.running && c.b.clock !== 'virtual' && ends.b === null);
  const snapshot = useCallback(() => wallTicker.now(), []);
  const wallNow = useSyncExternalStore(ticking ? wallTicker.subscribe : noSubscription, snapshot, snapshot);
  return comparisonAt(c, {
    a: sideClockNow(c.a, receivedAt, wallNow, ends.a),
    b: sideClockNow(c.b, receivedAt, wallNow, ends.b),
  });
}
