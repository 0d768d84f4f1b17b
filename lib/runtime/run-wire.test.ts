import { describe, expect, it } from 'vitest';
import { MIN_PIECE } from '@/lib/cassettes';
import { WIRE_KEY_PLACEHOLDER, type RunEvent } from '@/lib/protocol';
import { runWithWire, WIRE_CANARY_KEY, WIRE_VENDORS } from '@/lib/testing/wire-runs';

/** What ends a whole streamed answer, per wire dialect. */
const STREAM_END: Record<string, string> = {
  anthropic: 'event: message_stop',
  openai: 'data: [DONE]',
  responses: 'event: response.completed',
};

const requestsOf = (events: RunEvent[]) =>
  events.flatMap((e) => (e.event === 'model_request' ? [{ n: e.request_no, ts: e.ts }] : []));

/**
 * A run's wire (LaunchOptions.onWire) is recorded above the fault wrapper: every request the SDK
 * sent, with the key's header kept by name and its value a placeholder, and the response as the SDK
 * received it — an injected 429 included — with the run-clock time of its headers and each read.
 */
describe.each(WIRE_VENDORS)('the wire of a run on %s', (vendor) => {
  it('keeps every request as the SDK sent it and every response as it received it, fault included, with no key', async () => {
    const { events, wire } = await runWithWire(vendor);
    expect(events.at(-1)).toMatchObject({ event: 'terminate' });
    const requests = requestsOf(events);
    expect(requests.length).toBeGreaterThan(2);
    // One exchange per request, sent at the run-clock time its model_request was written.
    expect(wire.map((x) => ({ n: x.n, ts: x.at_ms }))).toEqual(requests);

    // Request 1 got the injected 429 (the fault wrapper's answer, in the vendor's own body), as the SDK saw it.
    const faulted = wire[0]!;
    expect(events.some((e) => e.event === 'fault_injected' && e.request_no === 1)).toBe(true);
    expect(faulted.response).toMatchObject({ status: 429, end: 'complete' });
    expect(faulted.response!.headers['retry-after']).toBe('1');
    expect(faulted.response!.chunks.map((c) => c.text).join('')).toMatch(/rate.?limit/i);

    // The request: the URL, every header the SDK set (the key's by name, its value the placeholder), the body.
    const { request } = wire[1]!;
    expect(request.method).toBe('POST');
    expect(request.url).toMatch(/^http:\/\/sim\.[a-z-]+\.local\/v1\/(messages|chat\/completions|responses)$/);
    const keyHeader = request.headers['x-api-key'] ?? request.headers.authorization;
    expect(keyHeader?.replace(/^Bearer /, '')).toBe(WIRE_KEY_PLACEHOLDER);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-stainless-retry-count']).toBe('0');
    expect(JSON.parse(request.body)).toMatchObject({ stream: true });

    // A served request: 200, its stream read by read on the run clock, to the dialect's end.
    const served = wire.find((x) => x.response?.status === 200)!;
    const response = served.response!;
    expect(response.end).toBe('complete');
    expect(response.chunks.length).toBeGreaterThan(1);
    expect(response.chunks.map((c) => c.text).join('')).toContain(STREAM_END[served.dialect]);
    const lastRead = served.at_ms + response.after_ms + response.chunks.reduce((t, c) => t + c.after_ms, 0);
    expect(lastRead).toBeGreaterThan(served.at_ms);
    expect(lastRead).toBeLessThanOrEqual(events.at(-1)!.ts);

    // No key, and no piece of one, anywhere in the wire.
    const text = JSON.stringify(wire);
    for (let i = 0; i + MIN_PIECE <= WIRE_CANARY_KEY.length; i += 1)
      expect(text).not.toContain(WIRE_CANARY_KEY.slice(i, i + MIN_PIECE));
  });

  it('is the same for the same config and seed', async () => {
    const [a, b] = [await runWithWire(vendor), await runWithWire(vendor)];
    expect(JSON.stringify(b.wire)).toBe(JSON.stringify(a.wire));
  });
});
