import { describe, expect, it } from 'vitest';
import { VirtualClock } from '@/lib/clock';
import { pacedBody, type BodyFrame } from './paced-body';

async function readChunks(
  body: ReadableStream<Uint8Array>,
  clock: VirtualClock,
): Promise<Array<[number, string]>> {
  const chunks: Array<[number, string]> = [];
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read())
    chunks.push([clock.now(), decoder.decode(read.value)]);
  return chunks;
}

describe('pacedBody', () => {
  it('sends each frame at its time, frames due at the same instant in one chunk', async () => {
    const clock = new VirtualClock();
    const frames: BodyFrame[] = [
      { delayMs: 0, text: 'start|' },
      { delayMs: 0, text: 'block|' },
      { delayMs: 30, text: 'a|' },
      { delayMs: 20, text: 'b|' },
      { delayMs: 0, text: 'stop|' },
      { delayMs: 0, text: 'end' },
    ];
    expect(await readChunks(pacedBody({ frames, clock }), clock)).toEqual([
      [0, 'start|block|'],
      [30, 'a|'],
      [50, 'b|stop|end'],
    ]);
  });

  it('draws frames lazily: nothing past the frames due now is generated before it is read', async () => {
    const clock = new VirtualClock();
    const made: number[] = [];
    function* frames(): Generator<BodyFrame> {
      for (let i = 0; i < 4; i++) {
        made.push(i);
        yield { delayMs: i === 2 ? 10 : 0, text: String(i) };
      }
    }
    const reader = pacedBody({ frames: frames(), clock }).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('01');
    expect(made).toEqual([0, 1, 2]);
    await reader.cancel();
  });

  it('errors with the abort reason when the request is aborted mid-wait', async () => {
    const clock = new VirtualClock();
    const controller = new AbortController();
    const reader = pacedBody({
      frames: [
        { delayMs: 0, text: 'x' },
        { delayMs: 1_000, text: 'y' },
      ],
      clock,
      signal: controller.signal,
    }).getReader();
    await reader.read();
    const next = reader.read();
    controller.abort(new Error('watchdog'));
    await expect(next).rejects.toThrow('watchdog');
  });

  it('drops the pending wait when the request aborts, even after the reader cancelled, and lets go of the signal', async () => {
    const clock = new VirtualClock();
    const controller = new AbortController();
    const reader = pacedBody({
      frames: [
        { delayMs: 0, text: 'x' },
        { delayMs: 1_000, text: 'y' },
      ],
      clock,
      signal: controller.signal,
    }).getReader();
    await reader.read();
    const next = reader.read();
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(clock.pending).toBe(1);
    await reader.cancel();
    expect(await next).toEqual({ done: true, value: undefined });
    expect(clock.pending).toBe(1);
    controller.abort(new Error('gone'));
    expect(clock.pending).toBe(0);

    const quiet = new AbortController();
    const whole = pacedBody({ frames: [{ delayMs: 5, text: 'a' }], clock, signal: quiet.signal }).getReader();
    expect(new TextDecoder().decode((await whole.read()).value)).toBe('a');
    expect(await whole.read()).toEqual({ done: true, value: undefined });
    quiet.abort(new Error('late'));
    expect(clock.pending).toBe(0);
  });
});
