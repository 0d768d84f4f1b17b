'use client';

import { useEffect, useState } from 'react';
import { useRunStoreApi } from '@/lib/client/run-view/run-store-provider';
import { statusAnnouncement, swapAnnouncement } from '@/lib/client/explain/status-announcement';

/**
 * A polite live region for screen readers: one sentence each time the run's status changes
 * (lib/client/explain/status-announcement.ts). The visible status line ticks every frame and is not
 * a live region, so nobody hears a countdown or a stream of deltas. A swap is said when it lands.
 */
export function StatusAnnouncer() {
  const store = useRunStoreApi();
  const [text, setText] = useState('');
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        const said =
          swapAnnouncement(previous.view.swaps, state.view.swaps) ??
          statusAnnouncement(previous.view.status, state.view.status, state.view.reason);
        if (said) setText(said);
      }),
    [store],
  );
  return (
    <p role="status" className="sr-only" data-testid="run-status-announcement">
      {text}
    </p>
  );
}
