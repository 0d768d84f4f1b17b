import 'server-only';
import { MAX_JSON_DEPTH, parseJsonWithin } from '@/lib/protocol';
import { HttpError } from './http-error';
import { learnRequestKeys } from './request-keys';

/** The most a trace import may be; read no further than this. */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;
/** The most a JSON request (a run config, a control message, a sweep grid) may be. */
export const MAX_JSON_BYTES = 1024 * 1024;

/** "20 MiB (20971520 bytes)": the limit as a person reads it and as a client checks it. */
export function describeLimit(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB (${bytes} bytes)` : `${bytes} bytes`;
}

/**
 * Reads a body as text, counting bytes as they arrive: a body over `maxBytes` is refused
 * (413, naming the limit) the moment it passes the limit, whether or not it declared a length —
 * a chunked upload of 300 MB is never held in memory. A body that ends before the length it
 * declared was cut somewhere on the way (a proxy's buffer, a dropped connection) and is
 * refused (400) rather than read as whole.
 */
export async function readText({
  request,
  maxBytes = MAX_BODY_BYTES,
}: {
  request: Request;
  maxBytes?: number;
}): Promise<string> {
  const header = request.headers.get('content-length');
  const declared = header !== null && /^\d+$/.test(header.trim()) ? Number(header) : undefined;
  if (declared !== undefined && declared > maxBytes) {
    throw new HttpError(
      413,
      `The request body is ${declared} bytes; the limit is ${describeLimit(maxBytes)}`,
    );
  }
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new HttpError(
        413,
        `The request body is over the limit of ${describeLimit(maxBytes)}; reading stopped there`,
      );
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  if (declared !== undefined && bytes < declared) {
    throw new HttpError(
      400,
      `The request body ended after ${bytes} of the ${declared} bytes it declared: it was cut on the way, and nothing was stored. Send it again`,
    );
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/**
 * Reads a JSON body, or fails with a 400 that says what to fix: not JSON (and why), or
 * nested deeper than MAX_JSON_DEPTH (and where). A key the body carries is remembered
 * (request-keys.ts) before any schema reads it, so no answer or stored text can quote it.
 */
export async function readJson({
  request,
  maxBytes = MAX_JSON_BYTES,
}: {
  request: Request;
  maxBytes?: number;
}): Promise<unknown> {
  const text = await readText({ request, maxBytes });
  if (text.trim() === '') throw new HttpError(400, 'The request body is empty; send a JSON object');
  const parsed = parseJsonWithin(text, MAX_JSON_DEPTH);
  if (parsed.ok) {
    learnRequestKeys(parsed.value);
    return parsed.value;
  }
  if (parsed.tooDeep === undefined)
    throw new HttpError(400, `The request body is not valid JSON: ${parsed.syntax}`);
  throw new HttpError(400, `The request body nests deeper than ${MAX_JSON_DEPTH} levels`, [
    `${parsed.tooDeep}: nested too deep; flatten it`,
  ]);
}
