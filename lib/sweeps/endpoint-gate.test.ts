import { describe, expect, it } from 'vitest';
import { createMemoryGate, decide, type TakeRequest } from './endpoint-gate';

const request = (now: number, over: Partial<TakeRequest> = {}): TakeRequest => ({
  key: 'sw:local',
  limits: { requestsPerMin: 2 },
  tokens: 10,
  windowMs: 1_000,
  now,
  ...over,
});

describe('the endpoint limiter', () => {
  it('lets N requests go in any window, then says how long until the oldest leaves it', async () => {
    const gate = createMemoryGate();
    expect((await gate.take(request(0))).waitMs).toBe(0);
    expect((await gate.take(request(100))).waitMs).toBe(0);
    expect(await gate.take(request(200))).toEqual({ waitMs: 800, because: 'requests' });
    expect((await gate.take(request(1_000))).waitMs).toBe(0);
  });

  it('counts a request from when its response began, so one held up on its way still counts in full', async () => {
    const gate = createMemoryGate();
    const first = await gate.take(request(0));
    const second = await gate.take(request(10));
    await gate.settle('sw:local', first.because === undefined ? first.entry : '', 400);
    await gate.settle('sw:local', second.because === undefined ? second.entry : '', 420);
    // Counted when they were let go, both would have left the window by 1,010; counted when their responses began, the first leaves at 1,400.
    expect(await gate.take(request(1_100))).toEqual({ waitMs: 300, because: 'requests' });
  });

  it('holds every request while paused, whatever the window holds', async () => {
    const gate = createMemoryGate();
    await gate.pauseUntil('sw:local', 5_000);
    expect(await gate.take(request(1_000, { limits: {} }))).toEqual({ waitMs: 4_000, because: 'paused' });
    // A shorter pause does not cut a longer one short.
    await gate.pauseUntil('sw:local', 2_000);
    expect((await gate.take(request(3_000, { limits: {} }))).because).toBe('paused');
    expect((await gate.take(request(5_000, { limits: {} }))).waitMs).toBe(0);
  });

  it('holds tokens a minute: waits until enough of the oldest leave, and lets a request larger than the limit go alone', () => {
    const limits = { tokensPerMin: 100 };
    const window = [
      { at: 0, tokens: 60 },
      { at: 300, tokens: 30 },
    ];
    expect(decide(window, 0, request(500, { limits, tokens: 50 }))).toEqual({
      waitMs: 500,
      because: 'tokens',
    });
    expect(decide(window, 0, request(500, { limits, tokens: 10 }))).toEqual({ waitMs: 0 });
    expect(decide([], 0, request(500, { limits, tokens: 500 }))).toEqual({ waitMs: 0 });
    expect(decide([{ at: 400, tokens: 5 }], 0, request(500, { limits, tokens: 500 }))).toEqual({
      waitMs: 900,
      because: 'tokens',
    });
  });
});
