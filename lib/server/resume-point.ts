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
  // Plain decimal only: Number() would also take "0x10", "2e3", "0b1" and " 1 ".
  const seq = /^(-1|0|[1-9][0-9]{0,14})$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(seq)) {
    const source = header?.trim() ? 'Last-Event-ID header' : '"after" query parameter';
    throw new HttpError(
      400,
      `The ${source} must be an event seq (a plain decimal integer ≥ -1, like 41), got "${raw}"`,
    );
  }
  return seq;
}
