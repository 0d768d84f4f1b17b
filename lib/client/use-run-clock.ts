'use client';

import { useEffect, useState } from 'react';
import { useRunStore } from './run-store-provider';

/**
 * The run clock now, in run milliseconds. Between events a live real-clock run advances
 * by wall time / time scale from the moment the latest event arrived; a virtual-clock or
 * finished run shows the time of its latest event.
 */
export function useRunClock(tickMs = 100): number {
  const clockTs = useRunStore((s) => s.view.clockTs);
  const receivedAt = useRunStore((s) => s.receivedAt);
  const live = useRunStore(
    (s) => s.view.clock === 'real' && s.view.status !== 'idle' && s.view.terminate === undefined,
  );
  const timeScale = useRunStore((s) => s.view.timeScale);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!live) return;
    const id = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(id);
  }, [live, tickMs]);

  if (!live || receivedAt === 0) return clockTs;
  const scale = timeScale > 0 ? timeScale : 1;
  return clockTs + Math.max(0, now - receivedAt) / scale;
}
