import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventLog } from '@/lib/protocol';
import { FakeEventSource, stubEventSource } from './fake-event-source.testkit';
import { preopenRunStream, takeRunStream } from './run-stream';

beforeEach(() => {
  stubEventSource();
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
    const seen: unknown[] = [];
    const opened = vi.fn();
    stream.attach({ onMessage: (value) => seen.push(value), onOpen: opened, onError: () => {} });
    source!.send('{"seq":2}');
    expect(seen).toEqual([{ seq: 0 }, { seq: 1 }, { seq: 2 }]);
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
    const seen: unknown[] = [];
    takeRunStream('r2')!.attach({
      onMessage: (value) => seen.push(value),
      onOpen: () => {},
      onError: () => {},
    });
    source!.send('{"seq":1}');
    // The POST's events are handed on as they are (not written out and read back).
    expect(seen[0]).toBe(first[0]);
    expect(seen.map((value) => (value as { seq: number }).seq)).toEqual([0, 1]);
  });
});
