'use client';

import { useEffect, useRef, useState } from 'react';
import { clusterMarkers, type MarkerCluster } from '@/lib/client/run-view/cluster-markers';
import { formatMs } from '@/lib/run-view/format';
import { useRunStoreApi } from '@/lib/client/run-view/run-store-provider';
import type { MarkerView } from '@/lib/run-view/run-view-state';
import type { TimeWindow } from '@/lib/client/run-view/time-window';

export const MARKER_TONE = {
  fault: 'bg-fail',
  control: 'bg-faint',
  log: 'bg-faint',
  storage: 'bg-fail',
  swap: 'bg-takeover',
} as const;

/**
 * Each kind its own shape as well as its colour (WCAG 1.4.1): a fault and a storage failure share
 * the failure red, so only the shape tells them apart. Sizes keep every shape about 8 px.
 */
export const MARKER_SHAPE = {
  fault: 'h-2 w-2 rotate-45',
  storage: 'h-2 w-2',
  control: 'h-2 w-2 rounded-full',
  log: 'h-2 w-2 rounded-full',
  swap: 'h-3 w-1',
} as const;

/** About a marker's width on screen: markers closer than this are drawn as one cluster. */
const MARKER_PX = 10;

/** The width of an element in px, kept up to date. */
export function useWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(
      ([entry]) => entry && setWidth(Math.max(entry.contentRect.width, 100)),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** The clusters of the visible window, sized to the lane's width on screen. */
export function useMarkerClusters(
  markers: readonly MarkerView[],
  window: TimeWindow,
): [React.RefObject<HTMLDivElement | null>, MarkerCluster[]] {
  const [ref, width] = useWidth();
  const minGapMs = ((window.to - window.from) / width) * MARKER_PX;
  return [ref, clusterMarkers(markers, { window, minGapMs })];
}

/**
 * Faults, control changes, swaps and notes on the time axis. A marker alone is its kind's shape
 * (MARKER_SHAPE) and opens in the inspector; markers too close to tell apart are one cluster with a count, and
 * clicking it zooms to the span it covers, where they come apart.
 */
export function WaterfallMarkers({
  clusters,
  window,
  laneRef,
  onZoomTo,
}: {
  clusters: readonly MarkerCluster[];
  window: TimeWindow;
  laneRef: React.RefObject<HTMLDivElement | null>;
  onZoomTo: (w: TimeWindow) => void;
}) {
  const api = useRunStoreApi();
  const span = Math.max(window.to - window.from, 1);
  const left = (ts: number): string => `${(((ts - window.from) / span) * 100).toFixed(3)}%`;
  return (
    <div className="flex">
      <div className="w-28 shrink-0 text-2xs text-faint">markers</div>
      <div ref={laneRef} className="relative h-4 flex-1 overflow-hidden">
        {clusters.map((c) => {
          if (c.markers.length === 1) {
            const m = c.markers[0]!;
            return (
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
                className={`absolute top-1 -translate-x-1/2 ${MARKER_SHAPE[m.kind]} ${MARKER_TONE[m.kind]}`}
                style={{ left: left(m.ts) }}
              />
            );
          }
          const pad = Math.max((c.to - c.from) * 0.1, 25);
          return (
            <button
              key={`c-${c.markers[0]!.seq}`}
              type="button"
              data-testid="waterfall-marker-cluster"
              data-kind={c.kind}
              data-count={c.markers.length}
              title={`${c.markers.length} ${c.kind} markers from ${formatMs(c.from)} to ${formatMs(c.to)} — click to zoom in and pull them apart`}
              onClick={() => onZoomTo({ from: c.from - pad, to: c.to + pad })}
              className={`tabular absolute top-0 h-4 min-w-4 rounded-full px-1 font-mono text-[9px] leading-4 text-white opacity-90 hover:opacity-100 ${MARKER_TONE[c.kind]}`}
              style={{ left: left(c.ts) }}
            >
              {c.markers.length}
            </button>
          );
        })}
      </div>
    </div>
  );
}
