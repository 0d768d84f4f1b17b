'use client';

import { formatMs } from '@/lib/run-view/format';
import { retryWaitWords } from '@/lib/run-view/retry-wait-words';
import type { RetryView } from '@/lib/run-view/run-view-state';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { useRunClock } from '@/lib/client/hooks/use-run-clock';

/**
 * The wait before the next attempt: "waited 3.9 s" only once the next request has gone out (or,
 * when it went out later than the wait, both times: retryWaitWords); while the wait still runs,
 * "waiting" with the run time spent so far, counting.
 */
export function RetryWait({ retry }: { retry: RetryView }) {
  const ended = useRunStore((s) => s.view.terminate !== undefined);
  const done = retryWaitWords(retry);
  if (done !== undefined)
    return (
      <span data-testid="retry-wait" data-state="done">
        {done}
      </span>
    );
  if (ended)
    return (
      <span data-testid="retry-wait" data-state="cut">
        wait cut off by the end of the run
      </span>
    );
  return <LiveWait retry={retry} />;
}

function LiveWait({ retry }: { retry: RetryView }) {
  const now = useRunClock();
  const spent = Math.min(retry.waitMs, Math.max(0, now - retry.ts));
  return (
    <span data-testid="retry-wait" data-state="waiting">
      waiting… {formatMs(spent)} of {formatMs(retry.waitMs)}
    </span>
  );
}
