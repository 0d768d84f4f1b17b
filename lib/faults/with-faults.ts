import { abortReason, type Clock, type Random } from '@/lib/clock';
import type { Dialect, FaultPlan, FaultRule } from '@/lib/protocol';
import { describeFault } from './describe-fault';
import { httpErrorResponse, proxyErrorResponse } from './error-responses';
import { faultedBody } from './faulted-body';
import { keepaliveBody } from './keepalive-body';
import { untilAborted } from './lazy-stream';
import { RuleMatcher, type FaultPlanPosition } from './rule-matcher';
import { fetchFailed } from './undici-errors';

export interface FaultInjection {
  /** The wrapper's own request count, from 1: every HTTP attempt through it. */
  requestNo: number;
  rule: FaultRule;
  label: string;
}

export interface WithFaultsOptions {
  fetch: typeof fetch;
  /** The wire format errors are written in; a function when the run can swap vendors. */
  dialect: Dialect | (() => Dialect);
  /** Read at every request, so a live toggle applies from the next request on. */
  plan: () => FaultPlan;
  clock: Clock;
  random: Random;
  onInject: (info: FaultInjection) => void;
  /**
   * A stream fault whose point never came (e.g. "drop mid-text" on a response with no text):
   * the response passed unchanged, and the run should say so rather than look unaffected.
   */
  onMiss?: (info: FaultInjection) => void;
  /**
   * A keepalive_only fault sent a keepalive on this request ('beat'), or its stream ended
   * ('end'). The SDK drops keepalives, so this is the only way the run can see them.
   */
  onKeepalive?: (info: { requestNo: number; style: 'ping' | 'comment'; phase: 'beat' | 'end' }) => void;
  /** Is the request going out now a background call (title, summary)? For rules aimed at one kind. */
  isBackground?: () => boolean;
  /**
   * Where the plan starts (a fork: where its parent's stood at the copied turn): the rules see
   * request n as the plan's request `requestsBefore + n` and start with the hits already spent.
   * The wrapper's own count (`requestNo` in what it reports) still starts at 1.
   */
  from?: FaultPlanPosition;
}

/** The name of the stream the rules' dice are drawn from (a fork replays them: lib/runtime/fork-faults.ts). */
export const RULE_DICE = 'when';

/**
 * Faults at the transport: a fetch that answers some requests the way a bad day does — a
 * vendor error, a proxy page, a refused socket — or passes them on and corrupts the SSE
 * body that comes back. The SDK above it parses the faulted bytes exactly as it would in
 * production. Every wait runs on the clock and honours the request's signal.
 */
export function withFaults(options: WithFaultsOptions): typeof fetch {
  const { clock } = options;
  const dialectNow =
    typeof options.dialect === 'function' ? options.dialect : (): Dialect => options.dialect as Dialect;
  const matcher = new RuleMatcher(options.random.fork(RULE_DICE), options.from?.spent);
  const before = options.from?.requestsBefore ?? 0;
  const ids = options.random.fork('request-ids');
  let requestCount = 0;

  const faulted = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const requestNo = ++requestCount;
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    if (signal?.aborted) throw abortReason(signal);

    const plan = options.plan();
    // Reading the model means parsing the whole body: done only when a rule asks for it or
    // an injected fault quotes it, not on the clean requests that are nearly all of a run.
    const model = (): string => modelOf(init?.body);
    const aimsAtModel = plan.rules.some((r) => r.model !== undefined);
    const rule = matcher.match({
      plan,
      requestNo: before + requestNo,
      background: options.isBackground?.() ?? false,
      now: clock.now(),
      ...(aimsAtModel ? { model: model() } : {}),
    });
    if (!rule) return options.fetch(input, init);
    const { action } = rule;
    const dialect = dialectNow();
    const inject = (): void =>
      options.onInject({ requestNo, rule, label: rule.label ?? describeFault({ action, dialect }) });
    const onKeepalive =
      action.type === 'keepalive_only' && options.onKeepalive
        ? (phase: 'beat' | 'end'): void =>
            options.onKeepalive!({
              requestNo,
              style: dialect === 'anthropic' ? action.style : 'comment',
              phase,
            })
        : undefined;

    switch (action.type) {
      case 'http_error':
        inject();
        return httpErrorResponse({
          dialect,
          action,
          requestId: requestId({ dialect, random: ids }),
          model: model(),
        });
      case 'proxy_error':
        inject();
        return proxyErrorResponse({ action });
      case 'connection': {
        inject();
        const url = urlOf(input);
        throw fetchFailed({ mode: action.mode, host: url.hostname, port: portOf(url) });
      }
      case 'keepalive_only': {
        // Placed inside a stream, it corrupts the real body like the other stream faults.
        if (action.afterEvents !== undefined || action.during !== undefined) break;
        inject();
        const body = keepaliveBody({
          dialect,
          style: action.style,
          intervalMs: action.intervalMs,
          clock,
          signal,
          ...(onKeepalive ? { onKeepalive } : {}),
        });
        const headers = new Headers({
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
        });
        headers.set(
          dialect === 'anthropic' ? 'request-id' : 'x-request-id',
          requestId({ dialect, random: ids }),
        );
        return new Response(body, { status: 200, headers });
      }
      case 'stall':
        if (!action.beforeHeaders) break;
        // The vendor accepted the connection and never answers: no headers, until aborted.
        inject();
        return await neverAnswers(signal);
    }
    // Every other fault corrupts a streaming success; anything else passes untouched.
    const response = await options.fetch(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !response.body || !type.includes('text/event-stream')) return response;
    inject();
    const framing = urlOf(input).pathname.endsWith('/responses') ? 'responses' : 'chat';
    const body = faultedBody({
      body: response.body,
      action,
      dialect,
      framing,
      model: model(),
      clock,
      signal,
      onMissed: () =>
        options.onMiss?.({ requestNo, rule, label: rule.label ?? describeFault({ action, dialect }) }),
      ...(onKeepalive ? { onKeepalive } : {}),
    });
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
  return faulted as typeof fetch;
}

/** A response that never comes: settles only when the request is aborted, with its reason. */
function neverAnswers(signal: AbortSignal | null | undefined): Promise<never> {
  return signal ? untilAborted(signal) : new Promise<never>(() => undefined);
}

function urlOf(input: RequestInfo | URL): URL {
  if (input instanceof URL) return input;
  return new URL(typeof input === 'string' ? input : input.url);
}

function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'http:' ? 80 : 443;
}

/** The model named in a JSON request body, for the vendor messages that quote it. */
function modelOf(body: BodyInit | null | undefined): string {
  if (typeof body !== 'string') return 'unknown-model';
  try {
    const parsed = JSON.parse(body) as { model?: unknown };
    return typeof parsed.model === 'string' ? parsed.model : 'unknown-model';
  } catch {
    return 'unknown-model';
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Request ids in each vendor's shape (`req_011C…` base62, `req_…` hex), from the seeded RNG. */
function requestId(options: { dialect: Dialect; random: Random }): string {
  const { dialect, random } = options;
  if (dialect === 'anthropic') {
    return `req_011C${Array.from({ length: 20 }, () => BASE62[random.int(0, 61)]).join('')}`;
  }
  return `req_${Array.from({ length: 32 }, () => random.int(0, 15).toString(16)).join('')}`;
}
