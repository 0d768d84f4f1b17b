import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { foldRawEvents } from './fold-raw-events';
import { createRunStore } from './run-store';
import { initialRunViewState } from '@/lib/run-view/run-view-state';
import { parseVendorLane, selectVendorLane } from './vendor-lane';

function request(seq: number, ts: number, iteration: number, vendor: string, model: string): RunEvent {
  return {
    run_id: 'r',
    seq,
    ts,
    event: 'model_request',
    iteration,
    attempt: 1,
    request_no: seq,
    vendor,
    model,
    message_count: 1,
    input_tokens_est: 10,
    max_tokens: 100,
    background: false,
  };
}

describe('the vendor lane', () => {
  it('groups consecutive turns by the vendor and model that answered them, on the run clock', () => {
    const events: RunEvent[] = [
      { run_id: 'r', seq: 0, ts: 0, event: 'iteration_start', iteration: 1 },
      request(1, 1, 1, 'sim-anthropic', 'claude-sim-sonnet'),
      { run_id: 'r', seq: 2, ts: 100, event: 'iteration_start', iteration: 2 },
      request(3, 101, 2, 'sim-anthropic', 'claude-sim-sonnet'),
      { run_id: 'r', seq: 4, ts: 200, event: 'iteration_start', iteration: 3 },
      request(5, 201, 3, 'sim-deepseek', 'deepseek-sim-reasoner'),
      { run_id: 'r', seq: 6, ts: 250, event: 'log', iteration: 3, level: 'info', message: 'later' },
    ];
    const store = createRunStore(foldRawEvents(initialRunViewState(), events));
    expect(parseVendorLane(selectVendorLane(store.getState()))).toEqual([
      { vendor: 'sim-anthropic', model: 'claude-sim-sonnet', fromTurn: 1, toTurn: 2, startTs: 0, endTs: 200 },
      {
        vendor: 'sim-deepseek',
        model: 'deepseek-sim-reasoner',
        fromTurn: 3,
        toTurn: 3,
        startTs: 200,
        endTs: 250,
      },
    ]);
  });

  it('runs the last segment on with the live run clock while a stalled stream sends no events', () => {
    const events: RunEvent[] = [
      { run_id: 'r', seq: 0, ts: 0, event: 'iteration_start', iteration: 1 },
      request(1, 5, 1, 'sim-anthropic', 'claude-sim-sonnet'),
    ];
    const key = selectVendorLane(createRunStore(foldRawEvents(initialRunViewState(), events)).getState());
    // Seven seconds of silence: the clock the header and the attempt bar show is at 7 s.
    expect(parseVendorLane(key, 7_000)).toEqual([
      {
        vendor: 'sim-anthropic',
        model: 'claude-sim-sonnet',
        fromTurn: 1,
        toTurn: 1,
        startTs: 0,
        endTs: 7_000,
      },
    ]);
    // A finished run's clock is its last event's time: the segment ends there.
    expect(parseVendorLane(key, 5)[0]!.endTs).toBe(5);
  });
});
