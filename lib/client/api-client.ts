import type { FaultPlan, RunConfig, RunConfigInput, Vendor } from '@/lib/protocol';

/** The browser's only way to the server: typed fetches over the HTTP API. */

export type RunSummaryStatus = 'running' | 'completed' | 'failed' | 'aborted';

/** One row of GET /api/runs. Fields may be missing on older or imported runs. */
export interface RunSummary {
  id: string;
  created_at?: string | number;
  status?: RunSummaryStatus;
  reason?: string;
  /** The task verdict (done / not_done / not_checkable); missing on runs without one. */
  verdict?: string | null;
  vendor?: string;
  model?: string;
  scenario?: string;
  iterations?: number;
  input_tokens?: number;
  output_tokens?: number;
  usd?: number;
  duration_ms?: number;
  event_count?: number;
  imported?: boolean;
}

export interface ScenarioInfo {
  id: string;
  title: string;
  summary: string;
  task: string;
}

export interface RunDetail {
  summary: RunSummary;
  config?: RunConfig;
}

export type ControlAction =
  | { action: 'abort' }
  | { action: 'set_faults'; faults: FaultPlan }
  | { action: 'compact' }
  /** Continue on another vendor from the next request; a key here is held for this run only. */
  | { action: 'swap'; vendor: Vendor; model: string; baseUrl?: string; apiKey?: string };

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(`network error: ${error instanceof Error ? error.message : String(error)}`, 0);
  }
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const b = (body ?? {}) as { error?: unknown; details?: unknown };
    const message = typeof b.error === 'string' ? b.error : `${response.status} ${response.statusText}`;
    const details = Array.isArray(b.details) ? b.details.map(String) : [];
    throw new ApiError(message, response.status, details);
  }
  return body as T;
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const enc = encodeURIComponent;

export function eventsUrl(id: string): string {
  return `/api/runs/${enc(id)}/events`;
}

export function traceUrl(id: string): string {
  return `/api/runs/${enc(id)}/trace`;
}

/** Accepts a bare array or one wrapped as `{ [key]: [...] }`. */
function listOf<T>(body: unknown, key: string): T[] {
  const rows = Array.isArray(body) ? body : (body as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(rows) ? (rows as T[]) : [];
}

export const api = {
  listScenarios: async (): Promise<ScenarioInfo[]> => listOf<ScenarioInfo>(await request<unknown>('/api/scenarios'), 'scenarios'),
  listRuns: async (): Promise<RunSummary[]> =>
    listOf<RunSummary>(await request<unknown>('/api/runs'), 'runs').filter((r) => typeof r?.id === 'string'),
  getRun: (id: string) => request<RunDetail>(`/api/runs/${enc(id)}`),
  /** The key travels with this one request only; it is never stored in the browser. */
  createRun: (config: RunConfigInput, apiKey?: string) =>
    request<{ id: string }>('/api/runs', json(apiKey ? { config, apiKey } : { config })),
  control: (id: string, action: ControlAction) => request<unknown>(`/api/runs/${enc(id)}/control`, json(action)),
  importTrace: (jsonl: string) =>
    request<{ id: string }>('/api/runs/import', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: jsonl,
    }),
};

/** The typed fetch and JSON POST init, for the other API clients beside this one (sweeps-api.ts). */
export { request as apiRequest, json as jsonPost };
