'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import type { RunEvent } from '@/lib/protocol';

/**
 * The selected item's raw events behind one click, one event a row. A long run's turn holds
 * thousands (every stream record its own event), so only the rows in view are drawn and each
 * row's JSON is written when it is drawn.
 */
export function RawEvents({ events }: { events: readonly RunEvent[] }) {
  const [open, setOpen] = useState(false);
  const label = `${events.length} raw event${events.length === 1 ? '' : 's'}`;
  return (
    <div className="text-2xs">
      <button
        type="button"
        className="text-muted underline decoration-dotted hover:text-fg"
        onClick={() => setOpen(!open)}
      >
        {open ? `hide ${label}` : `show ${label}`}
      </button>
      {open && <EventRows events={events} />}
    </div>
  );
}

function EventRows({ events }: { events: readonly RunEvent[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 120,
    overscan: 8,
  });
  return (
    <div
      ref={scrollRef}
      data-testid="raw-events"
      className="mt-1 max-h-96 overflow-auto rounded border border-line bg-sunken"
    >
      <div className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <pre
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            className="absolute inset-x-0 border-b border-line/50 p-2 font-mono text-2xs leading-4 whitespace-pre-wrap break-all"
            style={{ transform: `translateY(${item.start}px)` }}
          >
            {JSON.stringify(events[item.index], null, 2)}
          </pre>
        ))}
      </div>
    </div>
  );
}
