import { describe, expect, it } from 'vitest';
import { VirtualClock } from '@/lib/clock';
import { createMemoryGate } from './endpoint-gate';
import { gatedFetch } from './gated-fetch';

/** A 429 with these headers, through the gate; what the endpoint's pause then holds a request for. */
async function pauseAfter(headers: Record<string, string>): Promise<{ waitMs: number; pauses: string[] }> {
  const gate = createMemoryGate();
  const pauses: string[] = [];
  const fetch = gatedFetch(async () => new Response('slow down', { status: 429, headers }), {
    gate,
    key: 'sw:local',
    endpoint: 'local',
    limits: {},
    clock: new VirtualClock(),
    note: () => {},
    onPause: (message) => pauses.push(message),
    now: () => 1_000,
  });
  await fetch('http://endpoint.test/v1/chat/completions', { method: 'POST', body: '{}' });
  const wait = await gate.take({ key: 'sw:local', limits: {}, tokens: 0, windowMs: 60_000, now: 1_000 });
  return { waitMs: wait.waitMs, pauses };
}

describe('a sweep endpoint paused by Retry-After', () => {
  it('reads the hint as the engine does: an empty retry-after-ms leaves retry-after: 7 to speak', async () => {
    const { waitMs, pauses } = await pauseAfter({ 'retry-after-ms': '', 'retry-after': '7' });
    expect(waitMs).toBe(7_000);
    expect(pauses).toEqual([expect.stringContaining('paused for 7 s')]);
  });

  it('takes no hex for seconds: no pause', async () => {
    expect(await pauseAfter({ 'retry-after': '0x10' })).toEqual({ waitMs: 0, pauses: [] });
  });
});
