import type { FaultAction } from '@/lib/protocol';
import { POINTS, type InjectionPoint } from './injection-points';

/**
 * What a fault does to the request it hits, as the loop will meet it: an error (thrown by
 * the SDK, classified by the engine), silence (a stream that stays open and says nothing),
 * or only slowness.
 */
export type FaultEffect =
  | {
      kind: 'error';
      /** What the engine's classifier should make of it (only auth / permission / overflow / a bad request / a spent quota are final). */
      retryable: boolean;
      /** Its family, for ladders that retry only some (s11 retries rate limits and overloads only). */
      family: 'overloaded' | 'rate_limit' | 'other';
      /** The vendor SDK would retry it on its own (status 408/409/429/5xx or a connection error, before any body). */
      sdkRetryable: boolean;
    }
  | { kind: 'silence' }
  | { kind: 'slow'; delayMs: number };

export interface MatrixFault {
  id: string;
  label: string;
  effect: FaultEffect;
  /** The fault's action placed at a point, or why it cannot strike there. */
  at(point: InjectionPoint): { action: FaultAction } | { notApplicable: string };
}

const HEADERS_ONLY =
  'an HTTP status is decided before any body streams (mid-stream the vendor sends an error event: sse_error)';
const BODY_ONLY = 'needs a response body, which only comes after headers';

/** A fault that exists only before headers (an HTTP answer, a refused socket). */
function beforeHeaders(
  id: string,
  label: string,
  action: FaultAction,
  effect: FaultEffect,
  elsewhere = HEADERS_ONLY,
): MatrixFault {
  return {
    id,
    label,
    effect,
    at: (point) => (point === 'before_headers' ? { action } : { notApplicable: elsewhere }),
  };
}

/** A fault inside the stream, placed at the point's record. */
function inStream(
  id: string,
  label: string,
  effect: FaultEffect,
  make: (placement: NonNullable<(typeof POINTS)[InjectionPoint]['placement']>) => FaultAction,
  headers?: FaultAction,
): MatrixFault {
  return {
    id,
    label,
    effect,
    at: (point) => {
      const { placement } = POINTS[point];
      if (placement) return { action: make(placement) };
      return headers ? { action: headers } : { notApplicable: BODY_ONLY };
    },
  };
}

/**
 * The fault kinds of the matrix: every action the fault plan knows, HTTP errors in their
 * three families (overloaded, rate limited with Retry-After, refused for authentication).
 */
export const MATRIX_FAULTS: MatrixFault[] = [
  beforeHeaders(
    'http-529',
    'HTTP 529 overloaded (OpenAI: 503)',
    { type: 'http_error', status: 529 },
    { kind: 'error', retryable: true, family: 'overloaded', sdkRetryable: true },
  ),
  // Retry-After is short: the SDK-default cells' SDK honours it too (on the run clock).
  beforeHeaders(
    'http-429',
    'HTTP 429 + retry-after-ms 250',
    { type: 'http_error', status: 429, retryAfterMs: 250 },
    { kind: 'error', retryable: true, family: 'rate_limit', sdkRetryable: true },
  ),
  beforeHeaders(
    'http-401',
    'HTTP 401 bad key',
    { type: 'http_error', status: 401 },
    { kind: 'error', retryable: false, family: 'other', sdkRetryable: false },
  ),
  beforeHeaders(
    'proxy-502',
    'proxy 502 HTML page',
    { type: 'proxy_error', status: 502, body: 'html' },
    { kind: 'error', retryable: true, family: 'other', sdkRetryable: true },
  ),
  beforeHeaders(
    'connection',
    'connection reset',
    { type: 'connection', mode: 'reset' },
    { kind: 'error', retryable: true, family: 'other', sdkRetryable: true },
    'a reset after headers is a dropped stream (drop)',
  ),
  inStream('stall', 'stall (silence)', { kind: 'silence' }, (p) => ({ type: 'stall', ...p }), {
    type: 'stall',
    beforeHeaders: true,
  }),
  inStream('keepalive', 'keepalives only', { kind: 'silence' }, (p) => ({
    type: 'keepalive_only',
    intervalMs: 15_000,
    style: 'ping',
    ...p,
  })),
  inStream(
    'drop',
    'connection dropped',
    { kind: 'error', retryable: true, family: 'other', sdkRetryable: false },
    (p) => ({ type: 'drop', ...p }),
  ),
  inStream(
    'sse-error',
    'in-stream overloaded_error',
    { kind: 'error', retryable: true, family: 'overloaded', sdkRetryable: false },
    (p) => ({
      type: 'sse_error',
      errorType: 'overloaded_error',
      ...p,
    }),
  ),
  inStream(
    'malformed',
    'malformed JSON record',
    { kind: 'error', retryable: true, family: 'other', sdkRetryable: false },
    (p) => ({
      type: 'malformed',
      ...p,
    }),
  ),
  inStream('slow-drip', 'slow drip, 2 s a record', { kind: 'slow', delayMs: 2_000 }, (p) => ({
    type: 'slow_drip',
    delayMs: 2_000,
    ...p,
  })),
];
