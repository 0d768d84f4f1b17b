import type { CreateSweepRequestInput } from '@/lib/protocol';
import { apiRequest, jsonPost } from './client';

export type { SweepDetail, SweepFrame } from '@/lib/protocol/http';

const enc = encodeURIComponent;

/** The sweep endpoints; every response parsed with its schema (lib/protocol/http). */
export const sweepsApi = {
  list: () => apiRequest((h) => h.SweepSummaryListSchema, '/api/sweeps'),
  get: (id: string) => apiRequest((h) => h.SweepDetailSchema, `/api/sweeps/${enc(id)}`),
  create: (grid: CreateSweepRequestInput) =>
    apiRequest((h) => h.CreatedSchema, '/api/sweeps', jsonPost(grid)),
  cancel: (id: string) =>
    apiRequest((h) => h.SweepCancelledSchema, `/api/sweeps/${enc(id)}/cancel`, jsonPost({})),
  runs: (id: string) => apiRequest((h) => h.SweepRunMetricsListSchema, `/api/sweeps/${enc(id)}/runs`),
  /** A new sweep of only what failed in this one (lib/sweeps/rerun-failed.ts). */
  rerun: (id: string, body: { fromCassettes?: boolean }) =>
    apiRequest((h) => h.CreatedSchema, `/api/sweeps/${enc(id)}/rerun`, jsonPost(body)),
};

export function sweepEventsUrl(id: string): string {
  return `/api/sweeps/${enc(id)}/events`;
}

export function sweepExportUrl(id: string, format: 'json' | 'csv', what: 'table' | 'runs' = 'table'): string {
  return `/api/sweeps/${enc(id)}/export?format=${format}&what=${what}`;
}
