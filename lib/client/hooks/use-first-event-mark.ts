'use client';

import { useEffect, useRef } from 'react';
import { markAfterPaint, RUN_MARKS } from '../run-view/run-marks';
import { useRunStore } from '../run-view/run-store-provider';

/** Marks the first paint that shows one of the run's events (see run-marks.ts). */
export function useFirstEventMark(): void {
  const seen = useRunStore((s) => s.view.eventCount > 0);
  const marked = useRef(false);
  useEffect(() => {
    if (!seen || marked.current) return;
    marked.current = true;
    markAfterPaint(RUN_MARKS.firstPaint);
  }, [seen]);
}
