import { NextRequest } from 'next/server';
import { proxy } from '@/proxy';
import { GET as getBenchDiagnostics, POST as postBenchDiagnostics } from '@/app/api/bench-diagnostics/route';
import { GET as getCassettes, POST as postCassette } from '@/app/api/cassettes/route';
import { GET as getCassette } from '@/app/api/cassettes/[id]/route';
import { GET as getCompare } from '@/app/api/compare/route';
import { POST as postLessonPlay } from '@/app/api/lessons/[slug]/play/route';
import { GET as getPromptSets, POST as postPromptSet } from '@/app/api/prompt-sets/route';
import { GET as getRuns, POST as postRun } from '@/app/api/runs/route';
import { GET as getTasks, POST as postTask } from '@/app/api/tasks/route';
import { GET as getRun } from '@/app/api/runs/[id]/route';
import { POST as postRunCassette } from '@/app/api/runs/[id]/cassette/route';
import { POST as postControl } from '@/app/api/runs/[id]/control/route';
import { GET as getEvents } from '@/app/api/runs/[id]/events/route';
import { GET as getForks } from '@/app/api/runs/[id]/forks/route';
import { GET as getSwapTargets } from '@/app/api/runs/[id]/swap-targets/route';
import { GET as getOtel } from '@/app/api/runs/[id]/otel/route';
import { GET as getTrace } from '@/app/api/runs/[id]/trace/route';
import { GET as getRunView } from '@/app/api/runs/[id]/view/route';
import { GET as getRunWire } from '@/app/api/runs/[id]/wire/route';
import { POST as postImport } from '@/app/api/runs/import/route';
import { GET as getScenarios } from '@/app/api/scenarios/route';
import { GET as getSweeps, POST as postSweep } from '@/app/api/sweeps/route';
import { GET as getSweep } from '@/app/api/sweeps/[id]/route';
import { POST as postSweepCancel } from '@/app/api/sweeps/[id]/cancel/route';
import { POST as postSweepRerun } from '@/app/api/sweeps/[id]/rerun/route';
import { GET as getSweepEvents } from '@/app/api/sweeps/[id]/events/route';
import { GET as getSweepExport } from '@/app/api/sweeps/[id]/export/route';
import { GET as getSweepRuns } from '@/app/api/sweeps/[id]/runs/route';
import { POST as postRoomJoin } from '@/app/api/room/join/route';
import { GET as getRoomNotices } from '@/app/api/room/notices/route';
import { POST as postRunShare } from '@/app/api/runs/[id]/share/route';
import { GET as getShared } from '@/app/api/shared/[token]/route';
import { GET as getSharedEvents } from '@/app/api/shared/[token]/events/route';
import { GET as getSharedView } from '@/app/api/shared/[token]/view/route';
import { GET as getBoard } from '@/app/api/board/route';
import { GET as getBoardEvents } from '@/app/api/board/events/route';
import { POST as postBoardNotice } from '@/app/api/board/notice/route';

/**
 * Every API route called the way Next calls it — proxy first, then the route with its path
 * segments decoded — for the fuzzer and for a bare HTTP server in tests (no build needed).
 */

export interface FuzzRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export const BASE = 'http://localhost';
type Params = Record<string, string>;
type Handler = (request: Request, ctx: { params: Promise<Params> }) => Promise<Response>;
/** A bare handler, or one that takes (request) or (request, { params }): all called alike. */
type AnyHandler =
  ((request: Request, ctx: { params: Promise<never> }) => Promise<Response>) | (() => Promise<Response>);

/** The routes as app/api lays them out: `:name` is a dynamic segment. A fixed segment wins over a dynamic one. */
export const ROUTES: readonly { method: 'GET' | 'POST'; pattern: string; handler: AnyHandler }[] = [
  { method: 'GET', pattern: '/api/bench-diagnostics', handler: getBenchDiagnostics },
  { method: 'POST', pattern: '/api/bench-diagnostics', handler: postBenchDiagnostics },
  { method: 'GET', pattern: '/api/board', handler: getBoard },
  { method: 'GET', pattern: '/api/board/events', handler: getBoardEvents },
  { method: 'POST', pattern: '/api/board/notice', handler: postBoardNotice },
  { method: 'GET', pattern: '/api/cassettes', handler: getCassettes },
  { method: 'POST', pattern: '/api/cassettes', handler: postCassette },
  { method: 'GET', pattern: '/api/cassettes/:id', handler: getCassette },
  { method: 'GET', pattern: '/api/compare', handler: getCompare },
  { method: 'POST', pattern: '/api/lessons/:slug/play', handler: postLessonPlay },
  { method: 'GET', pattern: '/api/prompt-sets', handler: getPromptSets },
  { method: 'POST', pattern: '/api/prompt-sets', handler: postPromptSet },
  { method: 'GET', pattern: '/api/tasks', handler: getTasks },
  { method: 'POST', pattern: '/api/tasks', handler: postTask },
  { method: 'GET', pattern: '/api/runs', handler: getRuns },
  { method: 'POST', pattern: '/api/runs', handler: postRun },
  { method: 'POST', pattern: '/api/runs/import', handler: postImport },
  { method: 'GET', pattern: '/api/runs/:id', handler: getRun },
  { method: 'POST', pattern: '/api/runs/:id/cassette', handler: postRunCassette },
  { method: 'POST', pattern: '/api/runs/:id/control', handler: postControl },
  { method: 'POST', pattern: '/api/runs/:id/share', handler: postRunShare },
  { method: 'GET', pattern: '/api/runs/:id/events', handler: getEvents },
  { method: 'GET', pattern: '/api/runs/:id/forks', handler: getForks },
  { method: 'GET', pattern: '/api/runs/:id/swap-targets', handler: getSwapTargets },
  { method: 'GET', pattern: '/api/runs/:id/otel', handler: getOtel },
  { method: 'GET', pattern: '/api/runs/:id/trace', handler: getTrace },
  { method: 'GET', pattern: '/api/runs/:id/view', handler: getRunView },
  { method: 'GET', pattern: '/api/runs/:id/wire', handler: getRunWire },
  { method: 'POST', pattern: '/api/room/join', handler: postRoomJoin },
  { method: 'GET', pattern: '/api/room/notices', handler: getRoomNotices },
  { method: 'GET', pattern: '/api/shared/:token', handler: getShared },
  { method: 'GET', pattern: '/api/shared/:token/events', handler: getSharedEvents },
  { method: 'GET', pattern: '/api/shared/:token/view', handler: getSharedView },
  { method: 'GET', pattern: '/api/scenarios', handler: getScenarios },
  { method: 'GET', pattern: '/api/sweeps', handler: getSweeps },
  { method: 'POST', pattern: '/api/sweeps', handler: postSweep },
  { method: 'GET', pattern: '/api/sweeps/:id', handler: getSweep },
  { method: 'POST', pattern: '/api/sweeps/:id/cancel', handler: postSweepCancel },
  { method: 'POST', pattern: '/api/sweeps/:id/rerun', handler: postSweepRerun },
  { method: 'GET', pattern: '/api/sweeps/:id/events', handler: getSweepEvents },
  { method: 'GET', pattern: '/api/sweeps/:id/export', handler: getSweepExport },
  { method: 'GET', pattern: '/api/sweeps/:id/runs', handler: getSweepRuns },
];

/** Sends one request through the proxy and the route handler Next would pick. */
export async function dispatch(fuzz: FuzzRequest): Promise<Response> {
  const url = `${BASE}${fuzz.path}`;
  const headers = new Headers({ 'Content-Type': 'application/json' });
  for (const [name, value] of Object.entries(fuzz.headers ?? {})) headers.set(name, value);
  const init: RequestInit = { method: fuzz.method, headers };
  if (fuzz.body !== undefined && fuzz.method === 'POST') init.body = fuzz.body;
  const early = await proxy(new NextRequest(url, init as ConstructorParameters<typeof NextRequest>[1]));
  if (early) return early;
  const request = new Request(url, init);
  const segments = new URL(url).pathname
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));
  const route = pick(fuzz.method, segments);
  if (!route) return Response.json({ error: 'no such route' }, { status: 404 });
  return route.handler(request, { params: Promise.resolve(route.params) });
}

function pick(method: string, segments: string[]): { handler: Handler; params: Params } | undefined {
  let best: { handler: Handler; params: Params; fixed: number } | undefined;
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const parts = route.pattern.split('/').filter(Boolean);
    if (parts.length !== segments.length) continue;
    const params: Params = {};
    let fixed = 0;
    const matches = parts.every((part, i) => {
      if (part.startsWith(':')) {
        params[part.slice(1)] = segments[i]!;
        return true;
      }
      fixed += 1;
      return part === segments[i];
    });
    if (matches && (!best || fixed > best.fixed)) best = { handler: route.handler as Handler, params, fixed };
  }
  return best && { handler: best.handler, params: best.params };
}
