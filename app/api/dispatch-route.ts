import { NextRequest } from 'next/server';
import { proxy } from '@/proxy';
import { GET as getRuns, POST as postRun } from './runs/route';
import { GET as getRun } from './runs/[id]/route';
import { POST as postControl } from './runs/[id]/control/route';
import { GET as getEvents } from './runs/[id]/events/route';
import { GET as getTrace } from './runs/[id]/trace/route';
import { POST as postImport } from './runs/import/route';
import { GET as getScenarios } from './scenarios/route';

/**
 * The run API's routes called the way Next calls them — proxy first, then the route with its
 * path segment decoded — for the fuzzer and for a bare HTTP server in tests (no build needed).
 */

export interface FuzzRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export const BASE = 'http://localhost';
type Handler = (request: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;

/** Sends one request through the proxy and the route handler Next would pick. */
export async function dispatch(fuzz: FuzzRequest): Promise<Response> {
  const url = `${BASE}${fuzz.path}`;
  const headers = new Headers({ 'Content-Type': 'application/json' });
  for (const [name, value] of Object.entries(fuzz.headers ?? {})) headers.set(name, value);
  const init: RequestInit = { method: fuzz.method, headers };
  if (fuzz.body !== undefined && fuzz.method === 'POST') init.body = fuzz.body;
  const early = proxy(new NextRequest(url, init as ConstructorParameters<typeof NextRequest>[1]));
  if (early) return early;
  const request = new Request(url, init);
  const segments = new URL(url).pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  const route = pick(fuzz.method, segments);
  if (!route) return Response.json({ error: 'no such route' }, { status: 404 });
  return route.handler(request, { params: Promise.resolve({ id: route.id }) });
}

function pick(method: string, segments: string[]): { handler: Handler; id: string } | undefined {
  if (segments[0] !== 'api') return undefined;
  const [, first, id = '', leaf] = segments;
  if (first === 'scenarios' && segments.length === 2 && method === 'GET') return { handler: () => getScenarios(), id };
  if (first !== 'runs') return undefined;
  if (segments.length === 2) return { handler: method === 'POST' ? postRun : getRuns, id };
  if (segments.length === 3 && id === 'import' && method === 'POST') return { handler: postImport, id };
  if (segments.length === 3 && method === 'GET') return { handler: getRun, id };
  if (segments.length !== 4) return undefined;
  if (leaf === 'control' && method === 'POST') return { handler: postControl, id };
  if (leaf === 'events' && method === 'GET') return { handler: getEvents, id };
  if (leaf === 'trace' && method === 'GET') return { handler: getTrace, id };
  return undefined;
}

