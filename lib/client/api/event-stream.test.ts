import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openEventStream, readMessage } from './event-stream';
import { FakeEventSource, stubEventSource } from './fake-event-source.testkit';

beforeEach(stubEventSource);
afterEach(() => vi.unstubAllGlobals());

describe('the one event-stream reader', () => {
  it('hands each message on as its JSON value, in order; a message that is not JSON as undefined', () => {
    const seen: unknown[] = [];
    openEventStream('/api/runs/r1/events', { onMessage: (value) => seen.push(value) });
    const [source] = FakeEventSource.made;
    expect(source?.url).toBe('/api/runs/r1/events');
    source!.send('{"seq":0,"event":"run_start"}');
    source!.send('not json');
    source!.send('{"status":"running"}');
    expect(seen).toEqual([{ seq: 0, event: 'run_start' }, undefined, { status: 'running' }]);
  });

  it('tells a reconnecting drop from one the browser gave up on', () => {
    const drops: boolean[] = [];
    const opened = vi.fn();
    openEventStream('/s', { onMessage: () => {}, onOpen: opened, onError: (closed) => drops.push(closed) });
    const [source] = FakeEventSource.made;
    source!.open();
    source!.drop(false);
    source!.drop(true);
    expect(opened).toHaveBeenCalledOnce();
    expect(drops).toEqual([false, true]);
  });

  it('lets a reader close the stream from the message that ends it', () => {
    openEventStream('/s', {
      onMessage: (value, stream) => {
        if ((value as { event?: string }).event === 'terminate') stream.close();
      },
    });
    const [source] = FakeEventSource.made;
    source!.send('{"event":"llm_call"}');
    expect(source!.closed).toBe(false);
    source!.send('{"event":"terminate"}');
    expect(source!.closed).toBe(true);
  });

  it('reads JSON once, in one place', () => {
    expect(readMessage('{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(readMessage('')).toBeUndefined();
    expect(readMessage('{"a":')).toBeUndefined();
  });
});
