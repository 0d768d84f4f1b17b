import { afterEach, describe, expect, it, vi } from 'vitest';
import { readRecoveringRun } from '@/lib/testing/fixtures/recovering-run';
import { createRunStore, logWhole } from '../run-view/run-store';
import { foldLog } from '@/lib/run-view/fold-log';
import { namedEvents } from '@/lib/run-view/named-events';
import { readRunLog } from './run-log';

afterEach(() => vi.unstubAllGlobals());

const log = readRecoveringRun();
const jsonl = log.map((event) => JSON.stringify(event)).join('\n') + '\n';

/** The trace route's answer, arriving in chunks cut anywhere (mid-line, mid-character). */
function chunked(text: string, size: number): Response {
  const bytes = new TextEncoder().encode(text);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
      controller.close();
    },
  });
  return new Response(stream, { headers: { 'content-type': 'application/x-ndjson' } });
}

describe("a finished run's log, read after its first paint", () => {
  it('reads every event as stored from chunks cut mid-line, giving the page its frames between slices', async () => {
    const fetch = vi.fn(async () => chunked(jsonl, 777));
    vi.stubGlobal('fetch', fetch);
    // A clock where every parsed line costs 1 ms: a slice ends after 8 lines.
    let clock = 0;
    const yields: number[] = [];
    const progress: number[] = [];
    const read = await readRunLog('run 1', {
      now: () => (clock += 1),
      yieldToPage: async () => void yields.push(clock),
      onProgress: (n) => progress.push(n),
    });
    expect(read).toEqual(log);
    expect(fetch).toHaveBeenCalledWith('/api/runs/run%201/trace', expect.anything());
    expect(yields.length).toBeGreaterThan(log.length / 10);
    expect(progress.at(-1)).toBe(log.length);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('names the line that is not a stored event, and says what the server answered', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => chunked(`${JSON.stringify(log[0])}\n{"seq":1}\n`, 64)),
    );
    await expect(readRunLog('r')).rejects.toThrow('GET /api/runs/r/trace: line 2 is not a stored event');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('gone', { status: 404, statusText: 'Not Found' })),
    );
    await expect(readRunLog('r')).rejects.toThrow('GET /api/runs/r/trace: 404 Not Found');
  });

  it('the store holds the named events and says the log is loading until the whole log is in', () => {
    const view = foldLog(log);
    const store = createRunStore();
    store.getState().showFolded(view, namedEvents(view, log));
    expect(store.getState().logLoad).toEqual({ received: 0, total: log.length, whole: false });
    expect(logWhole(store.getState())).toBe(false);
    expect(store.getState().log.length).toBeLessThan(log.length);
    store.getState().logProgress(40);
    expect(store.getState().logLoad).toEqual({ received: 40, total: log.length, whole: false });
    store.getState().fillLog(log);
    expect(store.getState().logLoad).toEqual({ received: log.length, total: log.length, whole: true });
    expect(logWhole(store.getState())).toBe(true);
    expect(store.getState().log).toBe(log);
    expect(store.getState().view).toBe(view);

    const failed = createRunStore();
    failed.getState().showFolded(view, namedEvents(view, log));
    failed.getState().logFailed('GET /api/runs/r/trace: 500');
    expect(failed.getState().logLoad).toEqual({
      received: 0,
      total: log.length,
      whole: false,
      error: 'GET /api/runs/r/trace: 500',
    });
    expect(logWhole(failed.getState())).toBe(false);
    // A streamed run's log holds every event it folded.
    expect(logWhole(createRunStore().getState())).toBe(true);
  });
});
