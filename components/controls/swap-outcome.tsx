'use client';

import { swapOutcome, type SwapAsk } from '@/lib/client/explain/swap-outcome';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';

const TONE = { wait: 'text-wait', ok: 'text-ok', fail: 'text-fail' } as const;

/** What became of the last swap asked for from this page, in words; stays after the run ends. */
export function SwapOutcomeLine({ ask }: { ask: SwapAsk }) {
  const swaps = useRunStore((s) => s.view.swaps);
  const swapNotes = useRunStore((s) => s.view.swapNotes);
  const terminate = useRunStore((s) => s.view.terminate);
  const outcome = swapOutcome(ask, { swaps, swapNotes, terminate });
  return (
    <p
      role="status"
      data-testid="swap-outcome"
      data-tone={outcome.tone}
      className={`text-2xs ${TONE[outcome.tone]}`}
    >
      {outcome.text}
    </p>
  );
}
