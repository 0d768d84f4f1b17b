import { describe, expect, it, vi } from 'vitest';
import { createSseStream, type SseSink } from './sse-stream';

/** Reads the chunks a stream enqueues, as a server would write them. */
async function chunksOf(response: Response): Promise<string[]> {
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  const reader = response.body!.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read())
    chunks.push(decoder.decode(next.value));
  return chunks;
}

describe('createSseStream', () => {
  it('sends what the producer sent before the stream started, then closes when it ended', async () => {
    const response = await createSseStream({
      subscribe: async (sink) => {
        sink.send('data: 1\n\n');
        sink.send('data: 2\n\n');
        sink.end();
        return () => {};
      },
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect((await chunksOf(response)).join('')).toBe(': connected\n\ndata: 1\n\ndata: 2\n\n');
  });

  it('joins the frames of one burst into one chunk, and keeps bursts apart', async () => {
    let sink!: SseSink;
    const response = await createSseStream({ subscribe: async (s) => ((sink = s), () => {}) });
    const reading = chunksOf(response);
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 100; i++) sink.send(`data: ${i}\n\n`);
    await new Promise((resolve) => setImmediate(resolve));
    sink.send('data: last\n\n');
    sink.end();
    const chunks = await reading;
    expect(chunks[0]).toBe(': connected\n\n');
    expect(chunks[1]).toBe(Array.from({ length: 100 }, (_, i) => `data: ${i}\n\n`).join(''));
    expect(chunks.slice(2)).toEqual(['data: last\n\n']);
  });

  it('unsubscribes and closes when the client goes away, and runs beforeClose once', async () => {
    const unsubscribe = vi.fn();
    const beforeClose = vi.fn();
    const client = new AbortController();
    let sink!: SseSink;
    const response = await createSseStream({
      subscribe: async (s) => ((sink = s), unsubscribe),
      signal: client.signal,
      beforeClose,
    });
    const reading = chunksOf(response);
    await new Promise((resolve) => setImmediate(resolve));
    sink.send('data: before\n\n');
    client.abort();
    sink.send('data: after\n\n');
    expect((await reading).join('')).toBe(': connected\n\ndata: before\n\n');
    expect(unsubscribe).toHaveBeenCalledTimes(1);
    expect(beforeClose).toHaveBeenCalledTimes(1);
  });

  it('beats while the producer is quiet', async () => {
    // Only the heartbeat's interval is faked: frames go out at the end of a real turn (setImmediate).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let sink!: SseSink;
      const response = await createSseStream({
        subscribe: async (s) => ((sink = s), () => {}),
        heartbeatMs: 1_000,
      });
      const reader = response.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe(': connected\n\n');
      await vi.advanceTimersByTimeAsync(1_000);
      expect(new TextDecoder().decode((await reader.read()).value)).toBe(': heartbeat\n\n');
      sink.end();
      expect((await reader.read()).done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets subscribe throw (an unknown id) before any Response exists', async () => {
    await expect(
      createSseStream({
        subscribe: () => {
          throw new Error('No run with id "x"');
        },
      }),
    ).rejects.toThrow('No run with id');
  });
});
