/**
 * One limiter per endpoint of a sweep, shared by every run that goes to it: at most
 * `requestsPerMin` requests and `tokensPerMin` tokens in any window of a minute, and no request
 * at all while a 429's Retry-After pauses it. Locally one in-memory gate holds every run of the
 * pool (createMemoryGate); on BullMQ every worker shares one in Redis (redis-endpoint-gate.ts).
 * Times here are wall milliseconds (Date.now(): the one time every worker process shares); a
 * window is a minute of run time at the sweep's time scale. The gate never sleeps: it says how
 * long to wait, and the caller waits on its run clock (gated-fetch.ts).
 */
export interface EndpointLimits {
  requestsPerMin?: number;
  tokensPerMin?: number;
}

export interface TakeRequest {
  /** The endpoint's limiter: `<sweep id>:<endpoint id>`. */
  key: string;
  limits: EndpointLimits;
  /** What this request counts against tokensPerMin. */
  tokens: number;
  /** The window's length in wall ms (a minute of run time at the sweep's time scale). */
  windowMs: number;
  /** Wall ms now. */
  now: number;
}

/** Why a request must wait: the endpoint's pause, its request limit or its token limit. */
export type GateWait = { waitMs: 0; because?: undefined } | { waitMs: number; because: 'paused' | 'requests' | 'tokens' };

export interface EndpointGate {
  /** Takes a place for one request now (waitMs 0), or says how long until one may be free and why. */
  take(request: TakeRequest): Promise<GateWait>;
  /** No request to this endpoint before `until` (wall ms); an earlier pause is kept when it ends later. */
  pauseUntil(key: string, until: number): Promise<void>;
  close(): Promise<void>;
}

/** A request the window holds: when it went and what it counted. */
export interface WindowEntry {
  at: number;
  tokens: number;
}

/**
 * The decision both gates make (the Redis one in Lua, the same steps): drop what left the
 * window; if paused, wait the pause out; if the requests or tokens in the window would pass a
 * limit, wait until enough of the oldest leave it. A request larger than the token limit alone
 * goes once the window is empty (it could never go otherwise).
 */
export function decide(entries: readonly WindowEntry[], pausedUntil: number, request: TakeRequest): GateWait {
  const { now, windowMs, limits, tokens } = request;
  if (pausedUntil > now) return { waitMs: pausedUntil - now, because: 'paused' };
  const live = entries.filter((e) => e.at > now - windowMs);
  const rpm = limits.requestsPerMin;
  if (rpm !== undefined && live.length >= rpm) {
    return { waitMs: Math.max(1, live[live.length - rpm]!.at + windowMs - now), because: 'requests' };
  }
  const tpm = limits.tokensPerMin;
  if (tpm !== undefined && live.length > 0) {
    let sum = live.reduce((s, e) => s + e.tokens, 0);
    if (sum + tokens > tpm) {
      // Wait until the oldest entries that must leave for this request to fit have left.
      for (const e of live) {
        sum -= e.tokens;
        if (sum + tokens <= tpm || sum === 0) return { waitMs: Math.max(1, e.at + windowMs - now), because: 'tokens' };
      }
    }
  }
  return { waitMs: 0 };
}

/** The gate of one process: every run of the local pool goes through the same one. */
export function createMemoryGate(): EndpointGate {
  const windows = new Map<string, WindowEntry[]>();
  const paused = new Map<string, number>();
  return {
    take(request) {
      const kept = (windows.get(request.key) ?? []).filter((e) => e.at > request.now - request.windowMs);
      const wait = decide(kept, paused.get(request.key) ?? 0, request);
      if (wait.waitMs === 0) kept.push({ at: request.now, tokens: request.tokens });
      windows.set(request.key, kept);
      return Promise.resolve(wait);
    },
    pauseUntil(key, until) {
      paused.set(key, Math.max(paused.get(key) ?? 0, until));
      return Promise.resolve();
    },
    close() {
      windows.clear();
      paused.clear();
      return Promise.resolve();
    },
  };
}
