import type { SweepGrid, SweepGridInput, SweepRow, SweepRunMetrics, SweepSummary } from '@/lib/protocol';
import { apiRequest, jsonPost } from './api-client';

/** GET /api/sweeps/:id */
export interface SweepDetail {
  sweep: SweepSummary;
  grid: SweepGrid;
  rows: SweepRow[];
}

/** One frame of GET /api/sweeps/:id/events. */
export type SweepFrame = SweepSummary & { runs_per_sec: number; eta_ms: number | null };

const enc = encodeURIComponent;

export const sweepsApi = {
  list: () => apiRequest<SweepSummary[]>('/api/sweeps'),
  get: (id: string) => apiRequest<SweepDetail>(`/api/sweeps/${enc(id)}`),
  create: (grid: SweepGridInput) => apiRequest<{ id: string }>('/api/sweeps', jsonPost(grid)),
  cancel: (id: string) => apiRequest<unknown>(`/api/sweeps/${enc(id)}/cancel`, jsonPost({})),
  runs: (id: string) => apiRequest<SweepRunMetrics[]>(`/api/sweeps/${enc(id)}/runs`),
};

export function sweepEventsUrl(id: string): string {
  return `/api/sweeps/${enc(id)}/events`;
}

export function sweepExportUrl(id: string, format: 'json' | 'csv', what: 'table' | 'runs' = 'table'): string {
  return `/api/sweeps/${enc(id)}/export?format=${format}&what=${what}`;
}
