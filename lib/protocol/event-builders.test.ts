import { describe, expect, it } from 'vitest';
import { eventLog, parseEventJson, stampEvent, stampEventInPlace } from './event-builders';

describe('event builders', () => {
  it('stamps a body with its run, seq and run-clock ts, leaving the body as it was', () => {
    const body = { event: 'iteration_start' as const, iteration: 2 };
    expect(stampEvent(body, { run_id: 'r', seq: 4, ts: 120 })).toEqual({
      event: 'iteration_start',
      iteration: 2,
      run_id: 'r',
      seq: 4,
      ts: 120,
    });
    expect(body).toEqual({ event: 'iteration_start', iteration: 2 });
  });

  it('stamps in place for the engine log: the same object comes back', () => {
    const body = { event: 'iteration_start' as const, iteration: 1 };
    expect(stampEventInPlace(body, { run_id: 'r', seq: 0, ts: 0 })).toBe(body);
  });

  it('numbers a log from 0', () => {
    const log = eventLog('r', [
      { event: 'iteration_start', iteration: 1 },
      { event: 'iteration_start', iteration: 2 },
    ]);
    expect(log.map((e) => [e.seq, e.ts])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('refuses a JSON line that is not an event', () => {
    expect(() => parseEventJson('{"event":"iteration_start","run_id":"r","seq":0,"ts":0}')).toThrow(
      /iteration/,
    );
    expect(
      parseEventJson('{"event":"iteration_start","iteration":1,"run_id":"r","seq":0,"ts":0}').event,
    ).toBe('iteration_start');
  });
});
