import type { z } from 'zod';
import type { ForkSpec, RunConfigInput } from '@/lib/protocol';
import type * as Http from '@/lib/protocol/http';
import type { ControlBodyInput, NoticeBody, RunRecord } from '@/lib/protocol/http';
import type { RunViewState } from '@/lib/run-view/run-view-state';

/**
 * The browser's only way to the server: fetches over the HTTP API whose every response is
 * parsed with its endpoint's schema (lib/protocol/http). A body that does not match is an
 * ApiError naming the endpoint and the field, never a cast. The schemas (and zod) are loaded
 * with the first request, not with the page: a page's first paint carries none of them.
 */

/** The HTTP shapes' module, as the request helper loads it. */
export type HttpSchemas = typeof Http;

let schemas: Promise<HttpSchemas> | undefined;

/** The response schemas: loaded once, on the first request (or ahead of it, when the page is idle). */
export function loadSchemas(): Promise<HttpSchemas> {
  schemas ??= import('@/lib/protocol/http');
  return schemas;
}

export type {
  RunRecord as RunDetail,
  RunStatus as RunSummaryStatus,
  RunSummary,
  ScenarioInfo,
} from '@/lib/protocol/http';

/** What the UI may send to a live run (the control route's body, before defaults). */
export type ControlAction = ControlBodyInput;

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

/** What reading an answer needs: the error body and the parser, beside the endpoint's own schema. */
type EdgeSchemas = Pick<HttpSchemas, 'ErrorBodySchema' | 'ResponseShapeError' | 'parseResponse'>;

async function request<S extends z.ZodType>(
  pick: (http: HttpSchemas) => S,
  path: string,
  init?: RequestInit,
): Promise<z.output<S>> {
  return requestWith(loadSchemas, pick, path, init);
}

/** A request whose answer is read with the schemas `load` brings (every module of them, or a smaller one: run-view-edge). */
async function requestWith<M extends EdgeSchemas, S extends z.ZodType>(
  load: () => Promise<M>,
  pick: (http: M) => S,
  path: string,
  init?: RequestInit,
): Promise<z.output<S>> {
  const http = load();
  const endpoint = `${init?.method ?? 'GET'} ${path.split('?')[0]}`;
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
  const { ErrorBodySchema, ResponseShapeError, parseResponse } = await http;
  // Room mode (docs/room-mode.md): without a session every /api route is a 401; the page to join is /room.
  if (response.status === 401 && path !== '/api/room/join' && typeof window !== 'undefined') {
    const here = `${window.location.pathname}${window.location.search}`;
    if (window.location.pathname !== '/room')
      window.location.assign(`/room?next=${encodeURIComponent(here)}`);
  }
  if (!response.ok) {
    const parsed = ErrorBodySchema.safeParse(body);
    if (parsed.success) throw new ApiError(parsed.data.error, response.status, parsed.data.details ?? []);
    throw new ApiError(`${endpoint}: ${response.status} ${response.statusText}`.trim(), response.status);
  }
  try {
    return parseResponse(pick(await http), body, endpoint);
  } catch (error) {
    if (error instanceof ResponseShapeError)
      throw new ApiError(error.message, response.status, error.problems);
    throw error;
  }
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

export const api = {
  /** Room mode: enter the room code; the session is the cookie the answer sets. */
  joinRoom: (code: string) => request((h) => h.JoinedRoomSchema, '/api/room/join', json({ code })),
  listScenarios: () => request((h) => h.ScenarioListSchema, '/api/scenarios'),
  listRuns: () => request((h) => h.RunSummaryListSchema, '/api/runs'),
  getRun: (id: string): Promise<RunRecord> => request((h) => h.RunRecordSchema, `/api/runs/${enc(id)}`),
  /** A finished run folded by the server, with its log; `finished: false` while it is still going. */
  finishedView: (id: string) =>
    requestWith(
      () => import('@/lib/protocol/http/run-view-edge'),
      (h) => h.finishedRunViewSchema<RunViewState>(),
      `/api/runs/${enc(id)}/view`,
    ),
  /** A run shared by link, folded, as finishedView answers for its maker (lib/server/room-shares.ts). */
  sharedView: (token: string) =>
    requestWith(
      () => import('@/lib/protocol/http/run-view-edge'),
      (h) => h.finishedRunViewSchema<RunViewState>(),
      `/api/shared/${enc(token)}/view`,
    ),
  /** A read-only link of the run (its token is shown once); `revoke` ends every link of it. */
  shareRun: (id: string) => request((h) => h.SharedLinkSchema, `/api/runs/${enc(id)}/share`, json({})),
  revokeShares: (id: string) =>
    request((h) => h.RevokedSharesSchema, `/api/runs/${enc(id)}/share`, json({ revoke: true })),
  /** Room mode: the teacher sends every visitor's page "open this". */
  sendNotice: (body: NoticeBody) => request((h) => h.RoomNoticeSchema, '/api/board/notice', json(body)),
  /** The key travels with this one request only; it is never stored in the browser. */
  createRun: (config: RunConfigInput, apiKey?: string) =>
    request((h) => h.CreatedRunSchema, '/api/runs', json(apiKey ? { config, apiKey } : { config })),
  /** A new run from a stored run's trajectory up to a turn, on the vendor and model chosen. */
  forkRun: (fork: ForkSpec, apiKey?: string) =>
    request((h) => h.CreatedRunSchema, '/api/runs', json(apiKey ? { fork, apiKey } : { fork })),
  /** The runs forked from this one, oldest first. */
  listForks: (id: string) => request((h) => h.ForkListSchema, `/api/runs/${enc(id)}/forks`),
  /** Suggested demos for a swap: every simulated target judged naively and as handled, for the run's history now. */
  swapTargets: (id: string) => request((h) => h.SwapTargetsSchema, `/api/runs/${enc(id)}/swap-targets`),
  /** Each request of the run as the SDK sent and received it (its attempt cards' wire view). */
  runWire: (id: string, n?: number) =>
    request((h) => h.RunWireSchema, `/api/runs/${enc(id)}/wire${n === undefined ? '' : `?n=${n}`}`),
  /** Both runs of a lesson (mechanism on / off, same seed); a time scale only to play it faster than its demo scale. */
  playLesson: (slug: string, timeScale?: number) =>
    request(
      (h) => h.PlayedLessonSchema,
      `/api/lessons/${enc(slug)}/play`,
      json(timeScale === undefined ? {} : { timeScale }),
    ),
  control: (id: string, action: ControlAction) =>
    request((h) => h.ControlAcceptedSchema, `/api/runs/${enc(id)}/control`, json(action)),
  importTrace: (jsonl: string) =>
    request((h) => h.CreatedSchema, '/api/runs/import', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: jsonl,
    }),
};

/** The parsing fetch and JSON POST init, for the other API clients beside this one (sweeps.ts). */
export { request as apiRequest, json as jsonPost };
