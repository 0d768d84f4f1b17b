import 'server-only';
import { HttpError } from './http-error';

/**
 * Where an SSE client resumes: the Last-Event-ID header (sent by EventSource on reconnect)
 * wins over the `?after=` query parameter; both name the last seq the client has.
 */
export function resumePoint({ request }: { request: Request }): number {
  const header = request.headers.get('last-event-id');
  const query = new URL(request.url).searchParams.get('after');
  const raw = header?.trim() || query?.trim();
  if (!raw) return -1;
  const seq = Number(raw);
  if (!Number.isInteger(seq) || seq < -1) {
    const source = header?.trim() ? 'Last-Event-ID header' : '"after" query parameter';
    throw new HttpError(400, `The ${source} must be an event seq (an integer ≥ -1), got "${raw}"`);
  }
  return seq;
}
