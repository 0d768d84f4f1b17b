import type { Clock, Random } from '@/lib/clock';
import type { Emit } from '@/lib/engine';
import { parseRetryAfter } from '@/lib/protocol/retry-after';
import { formatMs, SDK_RETRIED_STATUSES } from '@/lib/protocol';

/** The Stainless SDKs' own backoff (both vendors' SDKs): min(0.5 s · 2ⁿ, 8 s), less up to 25 % jitter. */
const SDK_BASE_MS = 500;
const SDK_CAP_MS = 8_000;
const SDK_JITTER = 0.25;

export interface SdkRetryLayerOptions {
  clock: Clock;
  /** Draws the SDK's jitter, so the same seed waits the same. */
  random: Random;
  /** The SDK client's `maxRetries`. */
  maxRetries: number;
  log: { emit: Emit; readonly iteration: number; readonly inBackground: boolean };
}

/** What the request before a retry got. */
interface Failed {
  status?: number;
  retryAfterMs?: number;
}

/**
 * The vendor SDK's own retries made visible and put on the run clock. Sits just beneath the
 * SDK: every request the SDK sends comes through here with its retry count header
 * (`x-stainless-retry-count`), so a request the SDK retried on its own is recognised and
 * written as an `sdk_retry` event — the SDK decided it, not the loop. The SDK would sleep
 * between tries in wall time; instead a failed response it will retry is handed up with
 * `retry-after-ms: 1` (the SDK honours it), and the wait the SDK would have chosen — the
 * server's Retry-After, or its own backoff with jitter drawn from the run's seed — is slept
 * here on the run clock before the retry goes out. The last response (no retries left, or one
 * the SDK will not retry) reaches the SDK and the loop exactly as the vendor sent it. After a
 * connection error there are no headers to do that with: the SDK waits in wall time, and the
 * event says so.
 */
export function sdkRetryLayer(inner: typeof fetch, options: SdkRetryLayerOptions): typeof fetch {
  const { clock, random, maxRetries, log } = options;
  let requestNo = 0;
  let last: Failed | undefined;
  return (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    requestNo += 1;
    const retry = Number(new Headers(init?.headers).get('x-stainless-retry-count') ?? '0');
    if (retry > 0 && last) {
      const wait = sdkWait({ failed: last, retry, random });
      const after = last.status !== undefined ? `HTTP ${last.status}` : 'a connection error';
      log.emit({
        event: 'sdk_retry',
        iteration: log.iteration,
        request_no: requestNo,
        retry,
        max_retries: maxRetries,
        ...(last.status !== undefined ? { after_status: last.status } : {}),
        wait_ms: wait.ms,
        ...(last.retryAfterMs !== undefined ? { retry_after_ms: last.retryAfterMs } : {}),
        formula: wait.formula,
        background: log.inBackground,
        why: `the vendor SDK resent the request on its own after ${after} (its retry ${retry} of ${maxRetries}, beneath the loop): request ${requestNo} is one more HTTP request inside the same loop attempt, ${wait.ms > 0 ? `sent after ${formatMs(wait.ms)}` : 'sent after the SDK’s own wait'}`,
      });
      if (wait.ms > 0) await clock.sleep(wait.ms, init?.signal ?? undefined);
    }
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (error) {
      last = {};
      throw error;
    }
    if (response.status < 400) {
      last = undefined;
      return response;
    }
    const retryAfterMs = parseRetryAfter({ headers: response.headers, nowMs: Date.now() });
    last = { status: response.status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    return retry < maxRetries && sdkWillRetry(response) ? retryNow(response) : response;
  }) as typeof fetch;
}

/** The SDKs' rule (shouldRetry): the server's x-should-retry first, then 408, 409, 429 and 5xx. */
function sdkWillRetry(response: Response): boolean {
  const said = response.headers.get('x-should-retry');
  if (said === 'true') return true;
  if (said === 'false') return false;
  return (SDK_RETRIED_STATUSES as readonly number[]).includes(response.status) || response.status >= 500;
}

/** The same response, telling the SDK to retry after 1 ms: the real wait is slept on the run clock instead. */
function retryNow(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set('retry-after-ms', '1');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The wait the SDK would choose before retry `retry` (1-based): the server's Retry-After when positive, else its backoff. */
function sdkWait(options: { failed: Failed; retry: number; random: Random }): {
  ms: number;
  formula: string;
} {
  const { failed, retry, random } = options;
  if (failed.status === undefined)
    return {
      ms: 0,
      formula: 'a connection error carries no headers: the SDK waits its own backoff in wall time',
    };
  if (failed.retryAfterMs !== undefined && failed.retryAfterMs > 0) {
    return {
      ms: Math.round(failed.retryAfterMs),
      formula: `Retry-After ${formatMs(failed.retryAfterMs)}, as the server asked`,
    };
  }
  const n = retry - 1;
  const exponential = SDK_BASE_MS * 2 ** n;
  const capped = Math.min(exponential, SDK_CAP_MS);
  const factor = 1 - random.next() * SDK_JITTER;
  const ms = Math.round(capped * factor);
  return {
    ms,
    formula: `SDK backoff ${SDK_BASE_MS} × 2^${n} = ${exponential}, cap ${SDK_CAP_MS}, jitter ×${Number(factor.toFixed(3))} → ${ms} ms`,
  };
}
