import type { Clock } from '@/lib/clock';
import { formatMs } from '@/lib/protocol/format-duration';
import { parseRetryAfter } from '@/lib/protocol/retry-after';
import { estimateTokens } from '@/lib/tokens/count-tokens';
import type { EndpointGate, EndpointLimits } from './endpoint-gate';

/** A minute of run time: the window of a per-minute limit. */
const MINUTE_MS = 60_000;

export interface GatedFetchOptions {
  gate: EndpointGate;
  /** The limiter's key: `<sweep id>:<endpoint id>`. */
  key: string;
  /** The endpoint's id, as the sweep names it. */
  endpoint: string;
  limits: EndpointLimits;
  /** The run's clock (real, at the sweep's time scale): every wait here is a sleep on it. */
  clock: Clock;
  /** A line in the run's own log: why this request waited. */
  note: (message: string) => void;
  /** A line for the sweep's progress: an endpoint paused for every run. */
  onPause: (message: string) => void;
  /** Wall ms (Date.now() by default: the time every worker process shares). */
  now?: () => number;
}

/**
 * A real endpoint's fetch held to its limiter: before a request goes out it takes a place in
 * the endpoint's window (waiting on the run clock until one is free, the wait said in the run's
 * log), and a 429 answered with Retry-After pauses the endpoint for that long for every run of
 * the sweep (said in the sweep's progress). It sits beneath the fault wrapper, on the network
 * side: an injected fault sends nothing, so it counts nothing.
 */
export function gatedFetch(
  fetch: typeof globalThis.fetch,
  options: GatedFetchOptions,
): typeof globalThis.fetch {
  const { gate, key, endpoint, limits, clock } = options;
  const now = options.now ?? (() => Date.now());
  const windowMs = MINUTE_MS * clock.timeScale;
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const tokens = requestTokens(init?.body);
    let entry: string;
    for (;;) {
      const wait = await gate.take({ key, limits, tokens, windowMs, now: now() });
      if (wait.because === undefined) {
        entry = wait.entry;
        break;
      }
      const runMs = wait.waitMs / clock.timeScale;
      options.note(
        `waiting ${formatMs(runMs)} for endpoint "${endpoint}": ${waitReason(wait.because, limits, tokens)}; the request goes when the endpoint's limiter has room`,
      );
      await clock.sleep(runMs, init?.signal ?? undefined);
    }
    let response: Response;
    try {
      response = await fetch(input, init);
    } finally {
      await gate.settle(key, entry, now());
    }
    if (response.status === 429) {
      const afterMs = parseRetryAfter({ headers: response.headers, nowMs: now() });
      if (afterMs !== undefined) {
        await gate.pauseUntil(key, now() + afterMs * clock.timeScale);
        options.onPause(
          `endpoint "${endpoint}" paused for ${formatMs(afterMs)}: it answered 429 with Retry-After ${formatMs(afterMs)}; ` +
            `no run of the sweep sends to it until the pause ends`,
        );
      }
    }
    return response;
  }) as typeof globalThis.fetch;
}

function waitReason(
  because: 'paused' | 'requests' | 'tokens',
  limits: EndpointLimits,
  tokens: number,
): string {
  if (because === 'paused') return 'it is paused after a 429 with Retry-After';
  if (because === 'requests') return `its limit of ${limits.requestsPerMin} requests a minute is reached`;
  return `this request's ${tokens} tokens would pass its limit of ${limits.tokensPerMin} tokens a minute`;
}

/**
 * What a request counts against a tokens-a-minute limit, as OpenAI's limiter counts it: the
 * prompt (estimated at four characters a token from the body) plus the most output it asks for.
 */
export function requestTokens(body: unknown): number {
  if (typeof body !== 'string') return 0;
  let maxOut = 0;
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    for (const field of ['max_tokens', 'max_completion_tokens', 'max_output_tokens']) {
      if (typeof parsed[field] === 'number') maxOut = Math.max(maxOut, parsed[field]);
    }
  } catch {
    // Not JSON: its length is all there is to count.
  }
  return estimateTokens(body) + maxOut;
}
