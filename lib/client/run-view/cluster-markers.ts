import type { MarkerView } from '@/lib/run-view/run-view-state';
import type { TimeWindow } from './time-window';

/** Markers of one kind close enough on screen to be drawn as one. */
export interface MarkerCluster {
  kind: MarkerView['kind'];
  /** Where it is drawn: the first marker's time. */
  ts: number;
  /** The span its markers cover: zooming to it pulls them apart. */
  from: number;
  to: number;
  markers: readonly MarkerView[];
}

/**
 * Groups the markers in the visible window so that hundreds of them do not merge into one
 * band: markers of the same kind less than `minGapMs` apart (about a marker's width at the
 * current zoom) become one cluster with a count. A cluster grows from its first marker, so
 * the clusters of a run do not shift while it is live, and zooming in splits them.
 */
export function clusterMarkers(
  markers: readonly MarkerView[],
  options: { window: TimeWindow; minGapMs: number },
): MarkerCluster[] {
  const { window, minGapMs } = options;
  const open = new Map<MarkerView['kind'], MarkerCluster & { markers: MarkerView[] }>();
  const out: Array<MarkerCluster & { markers: MarkerView[] }> = [];
  const visible = markers
    .filter((m) => m.ts >= window.from && m.ts <= window.to)
    .sort((a, b) => a.ts - b.ts || a.seq - b.seq);
  for (const m of visible) {
    const current = open.get(m.kind);
    if (current && m.ts - current.ts < minGapMs) {
      current.markers.push(m);
      current.to = m.ts;
      continue;
    }
    const cluster = { kind: m.kind, ts: m.ts, from: m.ts, to: m.ts, markers: [m] };
    open.set(m.kind, cluster);
    out.push(cluster);
  }
  return out;
}
