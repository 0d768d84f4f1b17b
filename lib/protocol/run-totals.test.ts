import { describe, expect, it } from 'vitest';
import type { EventOf, RunEvent } from './events';
import { stampEvent } from './event-builders';
import { addToTotals, cacheHitRate, foldTotals, NO_TOTALS } from './run-totals';
import { runOutcome, terminateEvent } from './terminate-event';

const base = { run_id: 'r', ts: 0 };
let seq = 0;
const llmCall = (input: number, output: number, usdSoFar: number): EventOf<'llm_call'> =>
  ({
    ...base,
    seq: seq++,
    event: 'llm_call',
    iteration: 1,
    attempt: 1,
    vendor: 'sim-anthropic',
    model: 'claude-sim-sonnet',
    input_tokens: input,
    output_tokens: output,
    usd: 0,
    usd_so_far: usdSoFar,
    stop_reason: 'tool_use',
    latency_ms: 10,
  }) as EventOf<'llm_call'>;
const other = (): RunEvent => stampEvent({ event: 'iteration_start', iteration: 1 }, { ...base, seq: seq++ });
const terminate = (input: number, output: number, usd: number): RunEvent => ({
  ...base,
  seq: seq++,
  ...terminateEvent({
    reason: 'end_turn',
    complete: true,
    totals: { inputTokens: input, outputTokens: output, usd },
  }),
});

describe('the one totals fold', () => {
  it('adds every answered call and carries the cost so far, not a sum of rounded per-call costs', () => {
    const totals = foldTotals([
      other(),
      llmCall(1000, 200, 0.0061),
      other(),
      llmCall(1500, 300, 0.0123),
      llmCall(40, 12, 0.0124),
    ]);
    expect(totals).toEqual({ ...NO_TOTALS, inputTokens: 2540, outputTokens: 512, usd: 0.0124 });
  });

  it('takes the terminate event as the final word over the sum', () => {
    expect(foldTotals([llmCall(1000, 200, 0.006), terminate(1000, 200, 0.006)])).toEqual({
      ...NO_TOTALS,
      inputTokens: 1000,
      outputTokens: 200,
      usd: 0.006,
    });
    // A log whose terminate states totals the calls in the file do not add up to (an import of a partial trace).
    expect(foldTotals([llmCall(1000, 200, 0.006), terminate(5000, 900, 0.04)])).toEqual({
      ...NO_TOTALS,
      inputTokens: 5000,
      outputTokens: 900,
      usd: 0.04,
    });
  });

  it('sums the cached input each call reported and what it saved, and keeps them through the terminate', () => {
    const cached = (
      input: number,
      read: number,
      written: number,
      saved: number,
      usdSoFar: number,
    ): RunEvent => ({
      ...llmCall(input, 10, usdSoFar),
      cache_read_tokens: read,
      cache_write_tokens: written,
      cache_saved_usd: saved,
    });
    const totals = foldTotals([
      cached(1200, 0, 1200, -0.0009, 0.004),
      cached(1400, 1200, 200, 0.0025, 0.0055),
      llmCall(100, 10, 0.0056),
      terminate(2700, 30, 0.0056),
    ]);
    expect(totals).toMatchObject({ inputTokens: 2700, cacheReadTokens: 1200, cacheWriteTokens: 1400 });
    expect(totals.cacheSavedUsd).toBeCloseTo(0.0016, 10);
    expect(cacheHitRate(totals)).toBeCloseTo(1200 / 2700, 10);
    expect(cacheHitRate(NO_TOTALS)).toBe(0);
  });

  it('leaves the totals object untouched by every other event (cheap to fold on each event)', () => {
    const totals = { ...NO_TOTALS, inputTokens: 3, outputTokens: 4, usd: 0.5 };
    expect(addToTotals(totals, other())).toBe(totals);
    expect(foldTotals([])).toBe(NO_TOTALS);
  });
});

describe('terminateEvent and runOutcome', () => {
  it('writes the totals under the event field names, and leaves out an empty message and a missing iteration', () => {
    expect(
      terminateEvent({
        reason: 'internal_error',
        complete: false,
        message: '',
        totals: { inputTokens: 7, outputTokens: 8, usd: 0.01 },
      }),
    ).toEqual({
      event: 'terminate',
      reason: 'internal_error',
      complete: false,
      usd_so_far: 0.01,
      input_tokens: 7,
      output_tokens: 8,
    });
    expect(
      terminateEvent({
        reason: 'aborted',
        complete: false,
        iteration: 3,
        message: 'stop',
        totals: NO_TOTALS,
      }),
    ).toMatchObject({
      iteration: 3,
      message: 'stop',
    });
  });

  it('says how a run ended once: complete, aborted by a person or nobody watching, an import that did not say, or failed', () => {
    expect(runOutcome({ reason: 'end_turn', complete: true })).toBe('completed');
    expect(runOutcome({ reason: 'aborted', complete: false })).toBe('aborted');
    expect(runOutcome({ reason: 'abandoned', complete: false })).toBe('aborted');
    expect(runOutcome({ reason: 'imported', complete: false })).toBe('completed');
    expect(runOutcome({ reason: 'retries_exhausted', complete: false })).toBe('failed');
    expect(runOutcome({ reason: 'server_restart', complete: false })).toBe('failed');
  });
});
