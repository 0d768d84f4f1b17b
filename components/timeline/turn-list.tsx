'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { parseIterationKey, selectIterationKey } from '@/lib/client/run-view/selectors';
import { TurnCard } from './turn-card';

/** Above this many turns the list is virtualized. */
const VIRTUALIZE_AFTER = 40;

function selectedIteration(s: { selection?: { kind: string; iteration?: number } }): number | undefined {
  return s.selection && 'iteration' in s.selection ? s.selection.iteration : undefined;
}

/** Turn cards in order; re-renders only when a turn is added. */
export function TurnList() {
  const iterations = parseIterationKey(useRunStore(selectIterationKey));
  if (iterations.length === 0) {
    return <div className="p-4 text-xs text-faint">No turns yet.</div>;
  }
  return iterations.length > VIRTUALIZE_AFTER ? (
    <VirtualTurnList iterations={iterations} />
  ) : (
    <PlainTurnList iterations={iterations} />
  );
}

function PlainTurnList({ iterations }: { iterations: number[] }) {
  const selected = useRunStore(selectedIteration);
  useEffect(() => {
    if (selected === undefined) return;
    document
      .querySelector(`[data-testid="turn-card"][data-iteration="${selected}"]`)
      ?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  return (
    <div className="flex flex-col gap-2 p-3">
      {iterations.map((it) => (
        <TurnCard key={it} iteration={it} />
      ))}
    </div>
  );
}

function VirtualTurnList({ iterations }: { iterations: number[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const selected = useRunStore(selectedIteration);
  const virtualizer = useVirtualizer({
    count: iterations.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 180,
    overscan: 6,
  });
  useEffect(() => {
    if (selected === undefined) return;
    const index = iterations.indexOf(selected);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- scroll when the selection moves, not when a turn is added
  }, [selected]);
  return (
    <div ref={scrollRef} className="h-full overflow-y-auto">
      <div className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            className="absolute inset-x-0 px-3 py-1"
            style={{ transform: `translateY(${item.start}px)` }}
          >
            <TurnCard iteration={iterations[item.index]!} />
          </div>
        ))}
      </div>
    </div>
  );
}
