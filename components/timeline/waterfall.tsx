'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatMs } from '@/lib/run-view/format';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { useRunClock } from '@/lib/client/hooks/use-run-clock';
import {
  parseWaterfallShape,
  selectLastIteration,
  selectWaterfallShape,
} from '@/lib/client/run-view/selectors';
import {
  clampWindow,
  isWholeRun,
  panWindow,
  zoomWindow,
  type TimeWindow,
} from '@/lib/client/run-view/time-window';
import { VendorLane } from './vendor-lane';
import { MARKER_TONE, WaterfallMarkers, useMarkerClusters, useWidth } from './waterfall-markers';
import { ROW_HEIGHT, WaterfallRow } from './waterfall-row';
import { WaterfallKey } from './waterfall-key';
import { WaterfallZoomControls } from './waterfall-zoom-controls';
import { axisTickCount, niceDomain, pct, ticksBetween } from './waterfall-scale';
import { rowsOutOfViewCaption } from './waterfall-scroll';

/** The row labels' width (w-28). */
const LABEL_PX = 112;

/**
 * Where did the time go: one row per model call (each attempt a bar), tool executions as
 * their own rows, backoff waits hatched, watchdog windows banded, faults and control
 * changes as markers (clustered when they crowd). The time axis zooms and pans (buttons,
 * Ctrl + wheel, Shift + wheel); rows are virtualized and re-render only when their turn changes.
 */
export function Waterfall() {
  const shape = useRunStore(selectWaterfallShape);
  // The live run clock, not the last event's time: during a stall no event arrives, yet the
  // axis (and the open bar) must keep moving with the clock the header shows.
  const clockTs = useRunClock(3);
  const lastIteration = useRunStore(selectLastIteration);
  const markers = useRunStore((s) => s.view.markers);
  const rows = parseWaterfallShape(shape);
  const domain = niceDomain(clockTs);
  // Zoomed: a fixed stretch of run time; not zoomed: the whole run, following the clock.
  const [zoom, setZoom] = useState<TimeWindow | null>(null);
  const window = zoom ? clampWindow(zoom, domain) : { from: 0, to: domain };
  const setWindow = useCallback(
    (w: TimeWindow) => setZoom(isWholeRun(clampWindow(w, domain), domain) ? null : clampWindow(w, domain)),
    [domain],
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  // As many ticks as the axis has room for: on a phone six labels would run into each other.
  const [axisRef, axisWidth] = useWidth();
  const axis = ticksBetween(window.from, window.to, axisTickCount(axisWidth));
  const span = window.to - window.from;
  const at = (ts: number): string => pct(ts - window.from, span);
  const totalHeight = virtualizer.getTotalSize();
  const outOfView = rowsOutOfViewCaption({
    rows: rows.length,
    scrollTop: virtualizer.scrollOffset ?? 0,
    rowPx: ROW_HEIGHT,
  });
  const shownMarkers = markers.filter((m) => m.kind !== 'log' || m.level !== 'info');
  const [laneRef, clusters] = useMarkerClusters(shownMarkers, window);

  // Ctrl + wheel zooms at the cursor, Shift + wheel pans. A native listener: React's wheel
  // listeners are passive, and the page must not zoom or scroll instead.
  const sectionRef = useRef<HTMLElement>(null);
  const latest = useRef({ window, domain, setWindow });
  latest.current = { window, domain, setWindow };
  useEffect(() => {
    const el = sectionRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent): void => {
      if (!e.ctrlKey && !e.shiftKey) return;
      e.preventDefault();
      const { window: w, domain: d, setWindow: set } = latest.current;
      if (e.shiftKey) {
        set(panWindow(w, { by: Math.sign(e.deltaY || e.deltaX) * 0.1, domain: d }));
        return;
      }
      const box = el.getBoundingClientRect();
      const track = box.width - LABEL_PX - 32;
      const share = Math.min(Math.max((e.clientX - box.left - 16 - LABEL_PX) / Math.max(track, 1), 0), 1);
      set(
        zoomWindow(w, { factor: e.deltaY < 0 ? 0.8 : 1.25, at: w.from + share * (w.to - w.from), domain: d }),
      );
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  return (
    <section
      className="border-b border-line bg-panel px-4 py-2"
      data-testid="waterfall"
      data-from={Math.round(window.from)}
      data-to={Math.round(window.to)}
      ref={sectionRef}
    >
      <div className="flex text-2xs text-faint">
        <div className="flex w-28 shrink-0 items-center gap-1">
          waterfall
          <WaterfallZoomControls
            window={window}
            domain={domain}
            zoomed={zoom !== null}
            onChange={setWindow}
            onReset={() => setZoom(null)}
          />
        </div>
        <div ref={axisRef} className="relative h-4 flex-1 overflow-hidden" data-testid="waterfall-axis">
          {axis.map((t, i) => (
            <span
              key={t}
              className={`tabular absolute font-mono whitespace-nowrap ${i === 0 && t === window.from ? '' : i === axis.length - 1 ? '-translate-x-full' : '-translate-x-1/2'}`}
              style={{ left: at(t) }}
            >
              {formatMs(t)}
            </span>
          ))}
        </div>
      </div>
      <VendorLane domain={domain} window={window} nowTs={clockTs} />
      {shownMarkers.length > 0 && (
        <WaterfallMarkers clusters={clusters} window={window} laneRef={laneRef} onZoomTo={setWindow} />
      )}
      {rows.length === 0 ? (
        <div className="py-3 text-2xs text-faint">no model calls yet</div>
      ) : (
        <div ref={scrollRef} className="relative max-h-64 overflow-y-auto">
          <div className="relative" style={{ height: totalHeight }}>
            <div className="pointer-events-none absolute inset-y-0 right-0 left-28 overflow-hidden">
              {axis.map((t) => (
                <div key={t} className="absolute inset-y-0 w-px bg-line" style={{ left: at(t) }} />
              ))}
            </div>
            {virtualizer.getVirtualItems().map((item) => {
              const spec = rows[item.index]!;
              return (
                <div
                  key={item.key}
                  className="absolute inset-x-0"
                  style={{ top: item.start, height: ROW_HEIGHT }}
                >
                  <WaterfallRow
                    spec={spec}
                    domain={domain}
                    window={window}
                    liveEnd={spec.iteration === lastIteration ? clockTs : 0}
                  />
                </div>
              );
            })}
            <div className="pointer-events-none absolute inset-y-0 right-0 left-28 overflow-hidden">
              {clusters.map((c) => (
                <div
                  key={c.markers[0]!.seq}
                  className={`absolute inset-y-0 opacity-50 ${MARKER_TONE[c.kind]}`}
                  style={{
                    left: at(c.from),
                    width: c.markers.length > 1 ? pct(c.to - c.from, span) : undefined,
                    minWidth: 1,
                  }}
                />
              ))}
            </div>
          </div>
        </div>
      )}
      {outOfView && (
        <div className="pt-1 text-right text-2xs text-faint" data-testid="waterfall-out-of-view">
          {outOfView}
        </div>
      )}
      {rows.length > 0 && <WaterfallKey markerKinds={new Set(shownMarkers.map((m) => m.kind))} />}
    </section>
  );
}
