'use client';

import { useCallback, useSyncExternalStore } from 'react';
import { useRunStore } from '../run-view/run-store-provider';
import { wallTicker } from './wall-ticker';

const noSubscription = () => () => undefined;

/**
 * The run clock now, in run milliseconds. Between events a live real- or paced-clock run
 * advances by wall time / time scale from the moment the latest event arrived (a paced run's
 * next event comes when wall time has caught up with its run time, so a stream watchdog's
 * countdown runs down as it does on the real clock); a virtual-clock or finished run shows the
 * time of its latest event. Every caller reads the page's one wall
 * ticker (lib/client/hooks/wall-ticker.ts), so all the live numbers on screen move together;
 * `everyTicks` > 1 moves less often, in step with the rest.
 */
export function useRunClock(everyTicks = 1): number {
  const clockTs = useRunStore((s) => s.view.clockTs);
  const receivedAt = useRunStore((s) => s.receivedAt);
  const live = useRunStore(
    (s) => s.view.clock !== 'virtual' && s.view.status !== 'idle' && s.view.terminate === undefined,
  );
  const timeScale = useRunStore((s) => s.view.timeScale);
  const snapshot = useCallback(() => wallTicker.now(everyTicks), [everyTicks]);
  const now = useSyncExternalStore(live ? wallTicker.subscribe : noSubscription, snapshot, snapshot);

  if (!live || receivedAt === 0) return clockTs;
  const scale = timeScale > 0 ? timeScale : 1;
  return clockTs + Math.max(0, now - receivedAt) / scale;
}
