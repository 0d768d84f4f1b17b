import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { foldRawEvents, openAttempt, reduceRawEvent } from './reduce-run-event';
import { initialRunViewState, statusWord } from './run-view-state';

const fixture: unknown[] = readFileSync(
  fileURLToPath(new URL('./fixtures/recovering-run.jsonl', import.meta.url)),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as unknown);

function foldUpTo(seq: number) {
  return foldRawEvents(
    initialRunViewState(),
    fixture.filter((e) => (e as { seq: number }).seq <= seq),
  );
}

function seqOf(predicate: (e: Record<string, unknown>) => boolean): number {
  const found = fixture.find((e) => predicate(e as Record<string, unknown>)) as { seq: number } | undefined;
  if (!found) throw new Error('fixture event not found');
  return found.seq;
}

describe('reduceRunEvent over a recovering run', () => {
  const final = foldRawEvents(initialRunViewState(), fixture);

  it('builds one turn per iteration with their attempts', () => {
    expect(final.turns.map((t) => t.iteration)).toEqual([1, 2, 3]);
    expect(final.turns.map((t) => t.attempts.length)).toEqual([3, 2, 1]);
    expect(final.runId).toBe('run-fixture-1');
    expect(final.scenario?.title).toBe('Fix the failing test');
    expect(final.tools).toContain('edit_file');
  });

  it('records retry rungs with computed and actual waits', () => {
    const [a1, a2, a3] = final.turns[0]!.attempts;
    expect(a1!.outcome).toBe('error');
    expect(a1!.error).toMatchObject({ status: 529, category: 'overloaded', rule: 'status:529', retryable: true });
    expect(a1!.retry).toMatchObject({ nextAttempt: 2, maxAttempts: 4, computedDelayMs: 1043, waitMs: 1043, actualWaitMs: 1043 });
    expect(a2!.retry).toMatchObject({ nextAttempt: 3, computedDelayMs: 2100, actualWaitMs: 2100 });
    expect(a3!.outcome).toBe('ok');
    expect(a3!.retry).toBeUndefined();
  });

  it('assembles streamed deltas into thinking, text and tool arguments', () => {
    const a3 = final.turns[0]!.attempts[2]!;
    expect(a3.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['thinking', 'The test fails; read the source first.'],
      ['text', 'Let me read the file.'],
      ['tool_args', '{"path":"src/sum.js"}'],
    ]);
    expect(a3.blocks[2]).toMatchObject({ callId: 'call_1', tool: 'read_file' });
    expect(a3.contentSpans.length).toBeGreaterThanOrEqual(1);
    expect(a3.contentSpans[0]![0]).toBe(3450);
    expect(final.turns[0]!.result).toMatchObject({ stopReason: 'tool_use', attempt: 3, inputTokens: 900 });
    expect(final.turns[0]!.result?.message?.parts[0]).toMatchObject({ type: 'thinking' });
  });

  it('tracks tool calls, guards and budgets', () => {
    expect(final.turns[0]!.toolCalls[0]).toMatchObject({ tool: 'read_file', status: 'ok', latencyMs: 5, resultChars: 36 });
    expect(final.turns[1]!.toolCalls[0]).toMatchObject({ tool: 'edit_file', status: 'error', isError: true });
    expect(final.turns[1]!.guards[0]).toMatchObject({ kind: 'warning', budgetLeft: 2 });
    expect(final.toolBudgets).toEqual({ edit_file: 2 });
  });

  it('records the watchdog window and both outcomes', () => {
    const empty = final.turns[1]!.attempts[0]!;
    expect(empty.outcome).toBe('watchdog');
    expect(empty.watchdog).toMatchObject({ windowMs: 120000, fired: { outcome: 'empty', ts: 123900 } });
    expect(empty.error?.category).toBe('timeout');
    const partial = final.turns[2]!.attempts[0]!;
    expect(partial.watchdog?.fired?.outcome).toBe('partial');
    expect(partial.watchdog?.lastResetTs).toBe(125500);
    expect(partial.outcome).toBe('cut');
    expect(final.turns[2]!.result?.partial).toBe(true);
  });

  it('marks faults and control changes at their time and applies set_faults', () => {
    expect(final.markers.filter((m) => m.kind === 'fault').map((m) => m.ts)).toEqual([1, 1083]);
    const control = final.markers.find((m) => m.kind === 'control');
    expect(control).toMatchObject({ ts: 125200, label: 'faults changed' });
    expect(final.faults).toEqual({ rules: [], tools: [] });
  });

  it('ends with totals, terminate and a completed status', () => {
    expect(final.status).toBe('done');
    expect(statusWord(final.status)).toBe('completed');
    expect(final.terminate).toMatchObject({ reason: 'end_turn', complete: true });
    expect(final.totals).toEqual({ inputTokens: 3600, outputTokens: 108, usd: 0.0124 });
    expect(final.clockTs).toBe(245500);
    expect(openAttempt(final)).toBeUndefined();
  });

  it('skips unknown events without crashing', () => {
    expect(final.skippedCount).toBe(1);
    expect(final.eventCount).toBe(fixture.length - 1);
    const junk = reduceRawEvent(final, { event: 'nope' });
    expect(junk.skippedCount).toBe(2);
    expect(reduceRawEvent(final, 'not even an object').turns).toBe(final.turns);
  });

  it('gives the same result when replayed events are folded again', () => {
    const half = foldRawEvents(initialRunViewState(), fixture.slice(0, 25));
    // a reconnect that replays from the start, then continues
    const resumed = foldRawEvents(half, fixture);
    expect(resumed).toEqual(final);
    expect(foldRawEvents(final, fixture)).toBe(final);
  });
});

describe('status reasons in plain language', () => {
  it('explains a backoff wait', () => {
    const s = foldUpTo(seqOf((e) => e.event === 'retry_scheduled' && e.attempt === 2));
    expect(s.status).toBe('waiting');
    expect(s.reason).toBe('waiting 2.1 s: 529 overloaded, then attempt 3 of 4');
  });

  it('explains a watchdog firing', () => {
    const s = foldUpTo(seqOf((e) => e.event === 'watchdog_fired'));
    expect(s.status).toBe('recovering');
    expect(s.reason).toBe('turn 2: watchdog fired: no stream event for 2 m 00 s (Empty: no content had arrived)');
  });

  it('is running with an open, streaming attempt mid-call', () => {
    const s = foldUpTo(seqOf((e) => e.event === 'content_delta' && e.kind === 'text'));
    expect(s.status).toBe('running');
    expect(s.reason).toBe('turn 1: streaming text');
    expect(openAttempt(s)?.outcome).toBe('streaming');
    expect(openAttempt(s)?.watchdog?.lastResetTs).toBe(3600);
  });

  it('keeps untouched turns by reference when a delta arrives', () => {
    const deltaSeq = seqOf((e) => e.event === 'content_delta' && e.iteration === 2);
    const before = foldUpTo(deltaSeq - 1);
    const after = reduceRawEvent(before, fixture[deltaSeq]);
    expect(after.turns[0]).toBe(before.turns[0]);
    expect(after.turns[1]).not.toBe(before.turns[1]);
    expect(after.markers).toBe(before.markers);
  });
});

describe('budgets and lost events', () => {
  const final = foldRawEvents(initialRunViewState(), fixture);

  it('counts every model request the attempt budget counts and reads the budgets from run_start', () => {
    expect(final.requests).toBe(Math.max(...fixture.filter((e) => (e as { event: string }).event === 'model_request').map((e) => (e as { request_no: number }).request_no)));
    // A log from before the run budgets existed still parses: defaults are filled in.
    expect(final.config?.budgets).toMatchObject({ maxRunMs: 1_800_000, maxAttempts: 200 });
  });

  it('marks an event the store could not keep on the timeline, with why', () => {
    const start = foldRawEvents(initialRunViewState(), fixture.slice(0, 3));
    const next = reduceRawEvent(start, {
      run_id: 'run-fixture-1',
      seq: 3,
      ts: 10,
      event: 'storage_error',
      iteration: 1,
      replaces: 'tool_call',
      message: 'nested deeper than 64 levels',
    });
    expect(next.skippedCount).toBe(0);
    expect(next.markers.at(-1)).toMatchObject({ kind: 'storage', level: 'error', detail: 'nested deeper than 64 levels' });
    expect(next.markers.at(-1)?.label).toContain('tool_call');
  });
});

describe('the status reason around a spent retry budget', () => {
  const base = { run_id: 'r', iteration: 1 };
  const request = (seq: number, attempt: number) => ({ ...base, seq, ts: seq * 10, event: 'model_request', attempt, request_no: attempt, vendor: 'sim-anthropic', model: 'claude-sim-sonnet', message_count: 1, input_tokens_est: 10, max_tokens: 100, background: false });
  const error = (seq: number, attempt: number) => ({ ...base, seq, ts: seq * 10, event: 'model_error', attempt, message: '429', status: 429, category: 'rate_limit', rule: 'status:429', retryable: true, partial: false });
  const retry = (seq: number, attempt: number) => ({ ...base, seq, ts: seq * 10, event: 'retry_scheduled', attempt, next_attempt: attempt + 1, max_attempts: 2, category: 'rate_limit', rung: 'silent_retry', computed_delay_ms: 1000, wait_ms: 1000, reason: 'backoff' });
  const declined = { ...base, seq: 6, ts: 60, event: 'retry_declined', attempt: 2, account: 'foreground', category: 'rate_limit', rule: 'budget_spent', attempts: 2, max_attempts: 2, next: 'surface', why: 'no retry — retry budget of 1 spent; the error surfaces and the run ends.' };
  const events = [{ ...base, seq: 0, ts: 0, event: 'iteration_start' }, request(1, 1), error(2, 1), retry(3, 1), request(4, 2), error(5, 2), declined];

  it("states the error, then the engine's own decision; it never guesses what comes next", () => {
    expect(foldRawEvents(initialRunViewState(), events.slice(0, 3)).reason).toBe('turn 1: 429 rate limited on attempt 1');
    expect(foldRawEvents(initialRunViewState(), events.slice(0, 6)).reason).toBe('turn 1: 429 rate limited on attempt 2');
    const final = foldRawEvents(initialRunViewState(), events);
    expect(final.reason).toBe('turn 1: no retry — retry budget of 1 spent; the error surfaces and the run ends.');
    expect(final.turns[0]?.attempts[1]?.declined).toMatchObject({ rule: 'budget_spent', next: 'surface', maxAttempts: 2 });
  });
});
