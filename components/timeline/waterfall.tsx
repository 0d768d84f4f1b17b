'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { formatMs } from '@/lib/client/format';
import { useRunStore, useRunStoreApi } from '@/lib/client/run-store-provider';
import { useRunClock } from '@/lib/client/use-run-clock';
import { parseWaterfallShape, selectLastIteration, selectWaterfallShape } from '@/lib/client/selectors';
import { VendorLane } from './vendor-lane';
import { ROW_HEIGHT, WaterfallRow } from './waterfall-row';
import { niceDomain, pct, ticks } from './waterfall-scale';

const MARKER_TONE = { fault: 'bg-fail', control: 'bg-faint', log: 'bg-faint', storage: 'bg-fail', swap: 'bg-takeover' } as const;

/**
 * Where did the time go: one row per model call (each attempt a bar), tool executions as
 * their own rows, backoff waits hatched, watchdog windows banded, faults and control
 * changes as markers. Rows are virtualized and re-render only when their turn changes.
 */
export function Waterfall() {
  const shape = useRunStore(selectWaterfallShape);
  // The live run clock, not the last event's time: during a stall no event arrives, yet the
  // axis (and the open bar) must keep moving with the clock the header shows.
  const clockTs = useRunClock(250);
  const lastIteration = useRunStore(selectLastIteration);
  const markers = useRunStore((s) => s.view.markers);
  const api = useRunStoreApi();
  const rows = parseWaterfallShape(shape);
  const domain = niceDomain(clockTs);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const axis = ticks(domain);
  const totalHeight = virtualizer.getTotalSize();
  const shownMarkers = markers.filter((m) => m.kind !== 'log' || m.level !== 'info');

  return (
    <section className="border-b border-line bg-panel px-4 py-2" data-testid="waterfall">
      <div className="flex text-2xs text-faint">
        <div className="w-28 shrink-0">waterfall</div>
        <div className="relative h-4 flex-1">
          {axis.map((t, i) => (
            <span
              key={t}
              className={`tabular absolute font-mono whitespace-nowrap ${i === 0 ? '' : i === axis.length - 1 ? '-translate-x-full' : '-translate-x-1/2'}`}
              style={{ left: pct(t, domain) }}
            >
              {formatMs(t)}
            </span>
          ))}
        </div>
      </div>
      <VendorLane domain={domain} />
      {shownMarkers.length > 0 && (
        <div className="flex">
          <div className="w-28 shrink-0 text-2xs text-faint">markers</div>
          <div className="relative h-3 flex-1">
            {shownMarkers.map((m) => (
              <button
                key={m.seq}
                type="button"
                data-testid="waterfall-marker"
                data-kind={m.kind}
                title={`${m.kind} at ${formatMs(m.ts)}: ${m.label}${m.detail ? ` — ${m.detail}` : ''}`}
                onClick={() => {
                  api.getState().select({ kind: 'marker', seq: m.seq });
                  api.getState().setInspectorOpen(true);
                }}
                className={`absolute top-0.5 h-2 w-2 -translate-x-1/2 rotate-45 opacity-80 hover:opacity-100 ${MARKER_TONE[m.kind]}`}
                style={{ left: pct(m.ts, domain) }}
              />
            ))}
          </div>
        </div>
      )}
      {rows.length === 0 ? (
        <div className="py-3 text-2xs text-faint">no model calls yet</div>
      ) : (
        <div ref={scrollRef} className="relative max-h-64 overflow-y-auto">
          <div className="relative" style={{ height: totalHeight }}>
            <div className="pointer-events-none absolute inset-y-0 right-0 left-28">
              {axis.map((t) => (
                <div key={t} className="absolute inset-y-0 w-px bg-line" style={{ left: pct(t, domain) }} />
              ))}
            </div>
            {virtualizer.getVirtualItems().map((item) => {
              const spec = rows[item.index]!;
              return (
                <div key={item.key} className="absolute inset-x-0" style={{ top: item.start, height: ROW_HEIGHT }}>
                  <WaterfallRow spec={spec} domain={domain} liveEnd={spec.iteration === lastIteration ? clockTs : 0} />
                </div>
              );
            })}
            <div className="pointer-events-none absolute inset-y-0 right-0 left-28">
              {shownMarkers.map((m) => (
                <div key={m.seq} className={`absolute inset-y-0 w-px opacity-50 ${MARKER_TONE[m.kind]}`} style={{ left: pct(m.ts, domain) }} />
              ))}
            </div>
          </div>
        </div>
      )}
    </section>
  );
}
