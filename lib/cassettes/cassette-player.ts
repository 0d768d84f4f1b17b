import type { Clock } from '@/lib/clock';
import { vendorErrorBody, vendorHttpError } from '@/lib/dialects';
import type { Cassette, CassetteExchange, Dialect, OffRecording } from '@/lib/protocol';
import { replayBody } from './replay-body';
import { canonicalMatters, describeDifference, fingerprint, holdsRedaction, matchesUnderRedaction } from './what-matters';

/** Where the loop left the recording, for the event the run writes. */
export interface OffRecordingReport {
  requestNo: number;
  recordedNo?: number;
  differs: string;
  next: OffRecording;
  why: string;
}

export interface CassettePlayerOptions {
  cassette: Cassette;
  clock: Clock;
  offRecording: OffRecording;
  /** The request's number in the run (the fault wrapper's count), by its init. */
  requestNo: (init: RequestInit | undefined) => number;
  /** The dialect in force: the off-the-recording error is written in it. */
  dialect: () => Dialect;
  /** With `simulate`: the simulated vendor that takes over, and the model it is asked for in place of the recorded one (absent: the same). */
  simulated: () => { fetch: typeof fetch; model?: string; label: string };
  /** Called once, at the first request the recording does not hold. */
  onOffRecording: (report: OffRecordingReport) => void;
}

/**
 * A cassette as a vendor: a fetch that answers each request with the recorded response to the
 * same request — matched by the fingerprint of what matters (model, system, messages, tools),
 * or, for a recorded request the recording's key redaction changed, by what matters under that
 * redaction (`matchesUnderRedaction`),
 * the first recorded exchange with it not yet played, or, when every one was played (a retry
 * the recording did not make, after a fault on top), the last of them again — at the recorded
 * pace on the run clock. The first request the recording does not hold is reported with what
 * differs from the recorded request it should have been; then, as configured, it and every
 * later request are refused (stop) or sent to the simulated vendor (simulate).
 */
export function createCassettePlayer(options: CassettePlayerOptions): typeof fetch {
  const { cassette, clock } = options;
  const exchanges = cassette.exchanges;
  const byPrint = new Map<string, number[]>();
  // Recorded requests the recording's redaction changed: matched under it when no print is equal.
  const redacted = new Map<string, string>();
  exchanges.forEach((exchange, i) => {
    const print = fingerprint(exchange.request.body);
    byPrint.set(print, [...(byPrint.get(print) ?? []), i]);
    const text = canonicalMatters(exchange.request.body);
    if (holdsRedaction(text)) redacted.set(print, text);
  });
  /** The recorded exchanges this request is: the same print, or a recorded request it becomes under the recording's redaction. */
  const recordedAs = (body: string): number[] => {
    const exact = byPrint.get(fingerprint(body));
    if (exact || redacted.size === 0) return exact ?? [];
    const sent = canonicalMatters(body);
    for (const [print, text] of redacted) if (matchesUnderRedaction(sent, text)) return byPrint.get(print)!;
    return [];
  };
  const played = new Set<number>();
  let off: OffRecordingReport | undefined;

  const refuse = (report: OffRecordingReport): Response => {
    const dialect = options.dialect();
    const error = { ...vendorHttpError({ dialect, status: 400, model: '' }), message: `off the recording at request ${report.requestNo}: ${report.differs}` };
    return new Response(vendorErrorBody({ dialect, error, requestId: 'req_cassette' }), { status: 400, headers: { 'content-type': 'application/json' } });
  };
  const simulate = (input: RequestInfo | URL, init: RequestInit | undefined, body: string): Promise<Response> => {
    const target = options.simulated();
    return target.fetch(input, target.model ? { ...init, body: withModel(body, target.model) } : init);
  };

  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    init?.signal?.throwIfAborted();
    const body = typeof init?.body === 'string' ? init.body : '';
    if (off) return off.next === 'stop' ? refuse(off) : simulate(input, init, body);
    const candidates = recordedAs(body);
    const index = candidates.find((i) => !played.has(i)) ?? candidates.at(-1);
    if (index !== undefined) {
      played.add(index);
      return play(exchanges[index]!, clock, init?.signal ?? undefined);
    }
    const expected = exchanges.findIndex((_, i) => !played.has(i));
    const recorded = expected >= 0 ? exchanges[expected] : undefined;
    const requestNo = options.requestNo(init);
    const differs = recorded ? describeDifference(body, recorded.request.body) : `the recording has no request left (${exchanges.length} recorded)`;
    const next = options.offRecording;
    off = {
      requestNo,
      ...(recorded ? { recordedNo: recorded.n } : {}),
      differs,
      next,
      why:
        next === 'stop'
          ? `the recording does not hold request ${requestNo}, and the replay is set to stop off the recording: the cassette answers 400, which is not retried, so the run ends here`
          : `the recording does not hold request ${requestNo}, and the replay is set to go on: this and every later request goes to ${options.simulated().label}, which does not read the prompt`,
    };
    options.onOffRecording(off);
    return next === 'stop' ? refuse(off) : simulate(input, init, body);
  }) as typeof fetch;
}

/** One recorded exchange played: its failure, or its headers after the recorded wait and its body chunk by chunk. */
async function play(exchange: CassetteExchange, clock: Clock, signal: AbortSignal | undefined): Promise<Response> {
  const { response } = exchange;
  if (!response) {
    await clock.sleep(0, signal);
    throw new TypeError('fetch failed', { cause: new Error(exchange.failure ?? 'the recorded request failed') });
  }
  await clock.sleep(response.after_ms, signal);
  const empty = response.status === 204 || response.status === 205 || response.status === 304;
  return new Response(empty ? null : replayBody({ response, clock, signal }), { status: response.status, headers: response.headers });
}

function withModel(body: string, model: string): string {
  try {
    return JSON.stringify({ ...(JSON.parse(body) as object), model });
  } catch {
    return body;
  }
}
