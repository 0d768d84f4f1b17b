import { describe, expect, it } from 'vitest';
import { clusterMarkers } from './cluster-markers';
import type { MarkerView } from '@/lib/run-view/run-view-state';
import { zoomWindow } from './time-window';

const fault = (seq: number, ts: number): MarkerView => ({ seq, ts, kind: 'fault', label: `fault ${seq}` });

describe('clusterMarkers', () => {
  // 300 faults, one every 40 ms over 12 s: at full width (~10 px a marker on 800 px) they would merge.
  const markers = Array.from({ length: 300 }, (_, i) => fault(i, i * 40));
  const whole = { from: 0, to: 12_000 };
  const gapFor = (w: { from: number; to: number }) => ((w.to - w.from) / 800) * 10;

  it('draws hundreds of close markers as clusters with counts, losing none', () => {
    const clusters = clusterMarkers(markers, { window: whole, minGapMs: gapFor(whole) });
    expect(clusters.length).toBeGreaterThan(1);
    expect(clusters.length).toBeLessThan(300);
    expect(clusters.reduce((n, c) => n + c.markers.length, 0)).toBe(300);
    // Adjacent clusters are at least a marker's width apart: no solid band.
    for (let i = 1; i < clusters.length; i++)
      expect(clusters[i]!.ts - clusters[i - 1]!.ts).toBeGreaterThanOrEqual(gapFor(whole));
  });

  it('zooming in splits the clusters until each marker stands alone', () => {
    const zoomed = zoomWindow(whole, { factor: 1 / 16, at: 6000, domain: 12_000 });
    const clusters = clusterMarkers(markers, { window: zoomed, minGapMs: gapFor(zoomed) });
    expect(clusters.every((c) => c.markers.length === 1)).toBe(true);
    expect(clusters.every((c) => c.ts >= zoomed.from && c.ts <= zoomed.to)).toBe(true);
    expect(clusters.length).toBe(markers.filter((m) => m.ts >= zoomed.from && m.ts <= zoomed.to).length);
  });

  it('never merges markers of different kinds (each keeps its colour and meaning)', () => {
    const mixed: MarkerView[] = [
      fault(1, 100),
      { seq: 2, ts: 101, kind: 'swap', label: 'swap' },
      fault(3, 102),
    ];
    const clusters = clusterMarkers(mixed, { window: whole, minGapMs: 50 });
    expect(clusters.map((c) => [c.kind, c.markers.length])).toEqual([
      ['fault', 2],
      ['swap', 1],
    ]);
  });
});
