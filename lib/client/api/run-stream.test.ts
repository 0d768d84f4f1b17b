import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventLog } from '@/lib/protocol';
import { preopenRunStream, takeRunStream } from './run-stream';

/** A stand-in for the browser's EventSource: the test plays the server's side. */
class FakeEventSource {
  static made: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.made.push(this);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.();
  }
  send(data: string) {
    this.onmessage?.({ data });
  }
}

beforeEach(() => {
  FakeEventSource.made = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a run stream opened when the run is created', () => {
  it('connects at once, keeps what arrives before the view takes it, and hands it over in order', () => {
    preopenRunStream('r1');
    const [source] = FakeEventSource.made;
    expect(source?.url).toBe('/api/runs/r1/events');
    source!.open();
    source!.send('{"seq":0}');
    source!.send('{"seq":1}');

    const stream = takeRunStream('r1')!;
    const seen: string[] = [];
    const opened = vi.fn();
    stream.attach({ onMessage: (d) => seen.push(d), onOpen: opened, onError: () => {} });
    source!.send('{"seq":2}');
    expect(seen).toEqual(['{"seq":0}', '{"seq":1}', '{"seq":2}']);
    expect(opened).toHaveBeenCalledOnce();
    // Taken once: a second view (a remount) opens its own.
    expect(takeRunStream('r1')).toBeUndefined();
  });

  it('closes a stream no view took within 10 s; one that was taken stays open', () => {
    preopenRunStream('lost');
    preopenRunStream('kept');
    const [lost, kept] = FakeEventSource.made;
    takeRunStream('kept')!.attach({ onMessage: () => {}, onOpen: () => {}, onError: () => {} });
    vi.advanceTimersByTime(10_000);
    expect([lost!.closed, kept!.closed]).toEqual([true, false]);
    expect(takeRunStream('lost')).toBeUndefined();
  });

  it('starts from the events the POST brought: they come first, and the stream resumes after them', () => {
    const first = eventLog('r2', [{ event: 'iteration_start', iteration: 1 }]);
    preopenRunStream('r2', first);
    const [source] = FakeEventSource.made;
    expect(source?.url).toBe('/api/runs/r2/events?after=0');
    const seen: string[] = [];
    takeRunStream('r2')!.attach({ onMessage: (d) => seen.push(d), onOpen: () => {}, onError: () => {} });
    source!.send('{"seq":1}');
    expect(seen.map((d) => (JSON.parse(d) as { seq: number }).seq)).toEqual([0, 1]);
  });
});
