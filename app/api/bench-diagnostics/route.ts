import { errorResponse, refuseCrossSite } from '@/lib/server';
import {
  benchDiagnosticsEnabled,
  readBenchDiagnostics,
  resetBenchDiagnostics,
} from '@/lib/server/bench-diagnostics';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * For `npm run bench` only (lib/bench/load.ts): a 404 unless the server was started with
 * LOOP_LAB_BENCH_DIAGNOSTICS=1, and then only to a loopback Host. GET reads the figures
 * (lib/server/bench-diagnostics.ts); POST starts them again.
 */
export async function GET(request: Request): Promise<Response> {
  if (!allowed(request)) return notFound();
  return Response.json(await readBenchDiagnostics(), { headers: { 'Cache-Control': 'no-store' } });
}

export async function POST(request: Request): Promise<Response> {
  try {
    // A state-changing route like every other: another site's page is refused first.
    refuseCrossSite({ request });
    if (!allowed(request)) return notFound();
    resetBenchDiagnostics();
    return new Response(null, { status: 204 });
  } catch (error) {
    return errorResponse(error);
  }
}

function allowed(request: Request): boolean {
  const host = new URL(request.url).hostname;
  return benchDiagnosticsEnabled() && (host === '127.0.0.1' || host === 'localhost' || host === '[::1]');
}

function notFound(): Response {
  return Response.json({ error: 'Not found' }, { status: 404 });
}
