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
export type GateWait =
  { waitMs: 0; because?: undefined } | { waitMs: number; because: 'paused' | 'requests' | 'tokens' };

/** A place taken: `entry` names it for settle. */
export type GateTake =
  | { waitMs: 0; because?: undefined; entry: string }
  | { waitMs: number; because: 'paused' | 'requests' | 'tokens' };

export interface EndpointGate {
  /** Takes a place for one request now (waitMs 0), or says how long until one may be free and why. */
  take(request: TakeRequest): Promise<GateTake>;
  /**
   * Moves a taken place to when the request's response began (wall ms): the endpoint saw the
   * request somewhere between the take and then, so the window counts it at the later time —
   * a request held up on its way (a busy event loop, a slow connect) still counts in full.
   */
  settle(key: string, entry: string, at: number): Promise<void>;
  /** No request to this endpoint before `until` (wall ms); an earlier pause is kept when it ends later. */
  pauseUntil(key: string, until: number): Promise<void>;
  close(): Promise<void>;
}

/** A request the window holds: when it went (then when its response began) and what it counted. */
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
        if (sum + tokens <= tpm || sum === 0)
          return { waitMs: Math.max(1, e.at + windowMs - now), because: 'tokens' };
      }
    }
  }
  return { waitMs: 0 };
}

/** The gate of one process: every run of the local pool goes through the same one. */
export function createMemoryGate(): EndpointGate {
  const windows = new Map<string, Array<WindowEntry & { id: string }>>();
  const paused = new Map<string, number>();
  let taken = 0;
  return {
    take(request) {
      // Sorted by time: a settled entry moves later.
      const kept = (windows.get(request.key) ?? [])
        .filter((e) => e.at > request.now - request.windowMs)
        .sort((a, b) => a.at - b.at);
      windows.set(request.key, kept);
      const wait = decide(kept, paused.get(request.key) ?? 0, request);
      if (wait.because !== undefined) return Promise.resolve(wait);
      taken += 1;
      const entry = String(taken);
      kept.push({ id: entry, at: request.now, tokens: request.tokens });
      return Promise.resolve({ waitMs: 0, entry });
    },
    settle(key, entry, at) {
      const found = windows.get(key)?.find((e) => e.id === entry);
      if (found) found.at = Math.max(found.at, at);
      return Promise.resolve();
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
