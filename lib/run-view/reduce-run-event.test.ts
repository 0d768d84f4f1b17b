import { describe, expect, it } from 'vitest';
import type { EventOf, RunEvent } from '@/lib/protocol';
import { readRecoveringRun } from '@/lib/testing/fixtures/recovering-run';
import { formatMs } from './format';
import { openAttempt } from './reduce-run-event';
import { foldRawEvents, reduceRawEvent } from '@/lib/client/run-view/fold-raw-events';
import { initialRunViewState, statusWord } from './run-view-state';

/** A run the real engine made (`npm run fixtures`; fixtures.test.ts guards it against drift). */
const events = readRecoveringRun();
const fixture: unknown[] = events;

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

function only<T extends RunEvent['event']>(
  type: T,
  where: (e: EventOf<T>) => boolean = () => true,
): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.event === type && where(e as EventOf<T>));
}

describe('reduceRunEvent over a recovering run', () => {
  const final = foldRawEvents(initialRunViewState(), fixture);
  const turns = only('iteration_start').map((e) => e.iteration);

  it("builds one turn per iteration with their attempts (the title call is turn 10's background attempt)", () => {
    expect(final.turns.map((t) => t.iteration)).toEqual(turns);
    expect(final.turns.map((t) => t.attempts.filter((a) => !a.background).length)).toEqual(
      turns.map((n) => (n === 1 ? 3 : n === 2 ? 2 : 1)),
    );
    expect(final.turns.at(-1)!.attempts.filter((a) => a.background)).toHaveLength(1);
    expect(final.runId).toBe('run-fixture-1');
    expect(final.scenario?.title).toBe(only('run_start')[0]!.scenario.title);
    expect(final.tools).toContain('edit_file');
  });

  it('records retry rungs with computed and actual waits', () => {
    const [a1, a2, a3] = final.turns[0]!.attempts;
    const [r1, r2] = only('retry_scheduled', (e) => e.iteration === 1);
    expect(a1!.outcome).toBe('error');
    expect(a1!.error).toMatchObject({
      status: 529,
      category: 'overloaded',
      rule: only('model_error')[0]!.rule,
      retryable: true,
    });
    expect(a1!.retry).toMatchObject({
      nextAttempt: 2,
      maxAttempts: 4,
      computedDelayMs: r1!.computed_delay_ms,
      waitMs: r1!.wait_ms,
      actualWaitMs: r1!.wait_ms,
    });
    expect(a2!.retry).toMatchObject({
      nextAttempt: 3,
      computedDelayMs: r2!.computed_delay_ms,
      actualWaitMs: r2!.wait_ms,
    });
    expect(r2!.wait_ms).toBeGreaterThan(r1!.wait_ms);
    expect(a3!.outcome).toBe('ok');
    expect(a3!.retry).toBeUndefined();
  });

  it('assembles streamed deltas into thinking and tool arguments', () => {
    const a3 = final.turns[0]!.attempts[2]!;
    const deltas = only('content_delta', (e) => e.iteration === 1);
    const joined = (kind: string) =>
      deltas
        .filter((d) => d.kind === kind)
        .map((d) => d.text)
        .join('');
    expect(a3.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['thinking', joined('thinking')],
      ['tool_args', joined('tool_args')],
    ]);
    const call = only('tool_call', (e) => e.iteration === 1)[0]!;
    expect(a3.blocks[1]).toMatchObject({ callId: call.call_id, tool: call.tool });
    expect(a3.contentSpans[0]![0]).toBe(deltas[0]!.ts);
    const answer = only('llm_call', (e) => e.iteration === 1)[0]!;
    expect(final.turns[0]!.result).toMatchObject({
      stopReason: 'tool_use',
      attempt: 3,
      inputTokens: answer.input_tokens,
    });
    expect(final.turns[0]!.result?.message?.parts[0]).toMatchObject({ type: 'thinking' });
  });

  it('tracks tool calls, their failures and the loop guard', () => {
    const first = only('tool_call', (e) => e.iteration === 1)[0]!;
    expect(final.turns[0]!.toolCalls[0]).toMatchObject({
      tool: first.tool,
      status: 'ok',
      resultChars: first.result_chars,
    });
    const failed = final.turns.flatMap((t) => t.toolCalls).find((c) => c.tool === 'edit_file');
    expect(failed).toMatchObject({ status: 'error', isError: true });
    const guard = only('tool_guard')[0]!;
    expect(final.turns.find((t) => t.iteration === guard.iteration)!.guards[0]).toMatchObject({
      kind: 'blocked',
      tool: guard.tool,
    });
  });

  it('records the watchdog window and its Empty firing', () => {
    const fired = only('watchdog_fired')[0]!;
    const empty = final.turns[1]!.attempts[0]!;
    expect(empty.outcome).toBe('watchdog');
    expect(empty.watchdog).toMatchObject({
      windowMs: fired.window_ms,
      fired: { outcome: 'empty', ts: fired.ts },
    });
    expect(empty.error?.category).toBe('timeout');
    expect(empty.retry).toMatchObject({ nextAttempt: 2, waitMs: 0 });
    expect(final.turns[1]!.attempts[1]!.outcome).toBe('ok');
  });

  it('marks faults and control changes at their time and applies set_faults', () => {
    expect(final.markers.filter((m) => m.kind === 'fault').map((m) => m.ts)).toEqual(
      only('fault_injected').map((e) => e.ts),
    );
    const control = final.markers.find((m) => m.kind === 'control');
    expect(control).toMatchObject({ ts: only('control')[0]!.ts, label: 'faults changed' });
    expect(final.faults).toEqual({ rules: [], tools: [] });
  });

  it('ends with totals, terminate and a completed status', () => {
    const end = only('terminate')[0]!;
    expect(final.status).toBe('done');
    expect(statusWord(final.status)).toBe('completed');
    expect(final.terminate).toMatchObject({ reason: 'end_turn', complete: true });
    expect(final.totals).toMatchObject({
      inputTokens: end.input_tokens,
      outputTokens: end.output_tokens,
      usd: end.usd_so_far,
    });
    expect(final.clockTs).toBe(end.ts);
    expect(openAttempt(final)).toBeUndefined();
  });

  it('skips unknown events without crashing', () => {
    expect(final.skippedCount).toBe(0);
    expect(final.eventCount).toBe(fixture.length);
    const junk = reduceRawEvent(final, { event: 'nope' });
    expect(junk.skippedCount).toBe(1);
    expect(reduceRawEvent(final, 'not even an object').turns).toBe(final.turns);
    // An event a newer server added, here renumbering the log after it: skipped, the rest folds the same.
    const withUnknown = [
      ...events.slice(0, 20),
      { run_id: 'run-fixture-1', seq: 20, ts: events[19]!.ts, event: 'compaction_started' },
      ...events.slice(20).map((e) => ({ ...e, seq: e.seq + 1 })),
    ];
    const folded = foldRawEvents(initialRunViewState(), withUnknown);
    expect(folded.skippedCount).toBe(1);
    const shape = (v: typeof final) =>
      v.turns.map((t) => [t.iteration, t.attempts.map((a) => a.outcome), t.toolCalls.map((c) => c.status)]);
    expect(shape(folded)).toEqual(shape(final));
    expect(folded.totals).toEqual(final.totals);
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
    const retry = only('retry_scheduled', (e) => e.attempt === 2)[0]!;
    const s = foldUpTo(retry.seq);
    expect(s.status).toBe('waiting');
    expect(s.reason).toBe(`waiting ${formatMs(retry.wait_ms)}: 529 overloaded, then attempt 3 of 4`);
  });

  it('explains a watchdog firing', () => {
    const s = foldUpTo(seqOf((e) => e.event === 'watchdog_fired'));
    expect(s.status).toBe('recovering');
    expect(s.reason).toBe(
      'turn 2: watchdog fired: no stream event for 120 s (Empty: no content had arrived)',
    );
  });

  it('is running with an open, streaming attempt mid-call', () => {
    const seq = seqOf((e) => e.event === 'content_delta' && e.kind === 'thinking');
    const s = foldUpTo(seq);
    expect(s.status).toBe('running');
    expect(s.reason).toBe('turn 1: streaming thinking');
    expect(openAttempt(s)?.outcome).toBe('streaming');
    expect(openAttempt(s)?.watchdog?.lastResetTs).toBe((fixture[seq] as { ts: number }).ts);
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
    expect(final.requests).toBe(
      Math.max(
        ...fixture
          .filter((e) => (e as { event: string }).event === 'model_request')
          .map((e) => (e as { request_no: number }).request_no),
      ),
    );
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
    expect(next.markers.at(-1)).toMatchObject({
      kind: 'storage',
      level: 'error',
      detail: 'nested deeper than 64 levels',
    });
    expect(next.markers.at(-1)?.label).toContain('tool_call');
  });
});

describe('the status reason around a spent retry budget', () => {
  const base = { run_id: 'r', iteration: 1 };
  const request = (seq: number, attempt: number) => ({
    ...base,
    seq,
    ts: seq * 10,
    event: 'model_request',
    attempt,
    request_no: attempt,
    vendor: 'sim-anthropic',
    model: 'claude-sim-sonnet',
    message_count: 1,
    input_tokens_est: 10,
    max_tokens: 100,
    background: false,
  });
  const error = (seq: number, attempt: number) => ({
    ...base,
    seq,
    ts: seq * 10,
    event: 'model_error',
    attempt,
    message: '429',
    status: 429,
    category: 'rate_limit',
    rule: 'status:429',
    retryable: true,
    partial: false,
  });
  const retry = (seq: number, attempt: number) => ({
    ...base,
    seq,
    ts: seq * 10,
    event: 'retry_scheduled',
    attempt,
    next_attempt: attempt + 1,
    max_attempts: 2,
    category: 'rate_limit',
    rung: 'silent_retry',
    computed_delay_ms: 1000,
    wait_ms: 1000,
    reason: 'backoff',
  });
  const declined = {
    ...base,
    seq: 6,
    ts: 60,
    event: 'retry_declined',
    attempt: 2,
    account: 'foreground',
    category: 'rate_limit',
    rule: 'budget_spent',
    attempts: 2,
    max_attempts: 2,
    next: 'surface',
    why: 'no retry — retry budget of 1 spent; the error surfaces and the run ends.',
  };
  const events = [
    { ...base, seq: 0, ts: 0, event: 'iteration_start' },
    request(1, 1),
    error(2, 1),
    retry(3, 1),
    request(4, 2),
    error(5, 2),
    declined,
  ];

  it("states the error, then the engine's own decision; it never guesses what comes next", () => {
    expect(foldRawEvents(initialRunViewState(), events.slice(0, 3)).reason).toBe(
      'turn 1: 429 rate limited on attempt 1',
    );
    expect(foldRawEvents(initialRunViewState(), events.slice(0, 6)).reason).toBe(
      'turn 1: 429 rate limited on attempt 2',
    );
    const final = foldRawEvents(initialRunViewState(), events);
    expect(final.reason).toBe(
      'turn 1: no retry — retry budget of 1 spent; the error surfaces and the run ends.',
    );
    expect(final.turns[0]?.attempts[1]?.declined).toMatchObject({
      rule: 'budget_spent',
      next: 'surface',
      maxAttempts: 2,
    });
  });
});
