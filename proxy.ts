import { NextResponse, type NextRequest } from 'next/server';

/**
 * Runs before Next matches a route: an API path whose percent-encoding does not decode
 * (`/api/runs/%E0%A4%A`) gets a JSON 400 saying so, instead of the router's HTML error page.
 */
export function proxy(request: NextRequest): NextResponse | undefined {
  const bad = request.nextUrl.pathname.split('/').find((segment) => !decodes(segment));
  if (bad === undefined) return undefined;
  return NextResponse.json(
    { error: `The path has a malformed percent-encoding in "${bad.slice(0, 100)}"; encode it with encodeURIComponent` },
    { status: 400, headers: { 'Cache-Control': 'no-store' } },
  );
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

export const config = { matcher: '/api/:path*' };
