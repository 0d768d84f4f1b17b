import { describe, expect, it } from 'vitest';
import { stampEvent, type EventBody } from '@/lib/protocol';
import { groupBackgroundCalls } from './group-background-calls';
import { countOverrides } from '../forms/recovery-fields';
import { foldRawEvents } from './fold-raw-events';
import { initialRunViewState, type RunViewState } from '@/lib/run-view/run-view-state';
import { vendorStatLabel } from '../explain/vendor-stat-label';

/** Folds hand-written event bodies, stamping run_id, seq and ts (ts given per event). */
function fold(bodies: ReadonlyArray<EventBody & { ts: number }>): RunViewState {
  const events = bodies.map(({ ts, ...body }, seq) => stampEvent(body, { run_id: 'r', seq, ts }));
  return foldRawEvents(initialRunViewState(), events);
}

const request = (attempt: number, requestNo: number, background: boolean, ts: number) =>
  ({
    event: 'model_request',
    iteration: 1,
    attempt,
    request_no: requestNo,
    vendor: 'sim-anthropic',
    model: 'm',
    message_count: 1,
    input_tokens_est: 10,
    max_tokens: 64,
    background,
    ts,
  }) as const;
const retry = (attempt: number, ts: number, account: 'foreground' | 'background') =>
  ({
    event: 'retry_scheduled',
    iteration: 1,
    attempt,
    next_attempt: attempt + 1,
    max_attempts: 4,
    category: 'rate_limit',
    rung: 'silent_retry',
    computed_delay_ms: 1000,
    wait_ms: 1000,
    reason: 'r',
    account,
    ts,
  }) as const;
const error = (attempt: number, ts: number) =>
  ({
    event: 'model_error',
    iteration: 1,
    attempt,
    message: '429',
    status: 429,
    category: 'rate_limit',
    rule: 'status',
    retryable: true,
    partial: false,
    ts,
  }) as const;
const answer = (attempt: number, ts: number, background: boolean) =>
  ({
    event: 'llm_call',
    iteration: 1,
    attempt,
    input_tokens: 10,
    output_tokens: 5,
    usd_so_far: 0.01,
    stop_reason: 'end_turn',
    latency_ms: 100,
    ts,
    ...(background ? { background: true, purpose: 'title' } : {}),
  }) as const;
const end = (ts: number, reason: 'end_turn' | 'aborted') =>
  ({
    event: 'terminate',
    iteration: 1,
    reason,
    complete: reason === 'end_turn',
    usd_so_far: 0.01,
    input_tokens: 10,
    output_tokens: 5,
    ts,
  }) as const;

describe('labels that tell the truth', () => {
  it('an attempt still open when the run ends is closed as stopped (no eternal "streaming")', () => {
    const s = fold([
      { event: 'iteration_start', iteration: 1, ts: 0 },
      request(1, 1, false, 0),
      { event: 'stream_open', iteration: 1, attempt: 1, response_id: 'x', model: 'm', ttfb_ms: 50, ts: 50 },
      { event: 'content_delta', iteration: 1, attempt: 1, index: 0, kind: 'text', text: 'hel', ts: 60 },
      end(900, 'aborted'),
    ]);
    const a = s.turns[0]!.attempts[0]!;
    expect(a.outcome).toBe('stopped');
    expect(a.endTs).toBe(900);
  });

  it("a background call's stream is not read as the turn's answer: the status and the vendor label say which it is", () => {
    const s = fold([
      { event: 'iteration_start', iteration: 1, ts: 0 },
      request(1, 1, false, 0),
      { event: 'stream_open', iteration: 1, attempt: 1, response_id: 'x', model: 'm', ttfb_ms: 50, ts: 50 },
      answer(1, 100, false),
      request(1, 2, true, 120),
      { event: 'stream_open', iteration: 1, attempt: 1, response_id: 'y', model: 'm', ttfb_ms: 50, ts: 170 },
    ]);
    expect(s.reason).toBe('turn 1: background call streaming from m');
    expect(vendorStatLabel(s)).toBe('last answered by');
  });

  it("the title call's failed attempts are its own card's, not the last turn's", () => {
    const s = fold([
      { event: 'iteration_start', iteration: 1, ts: 0 },
      request(1, 1, false, 0),
      answer(1, 100, false),
      request(1, 2, true, 110),
      error(1, 120),
      retry(1, 120, 'background'),
      request(2, 3, true, 1120),
      error(2, 1130),
      { event: 'log', iteration: 1, level: 'warn', message: 'title call given up', ts: 1130 },
      end(1130, 'end_turn'),
    ]);
    const turn = s.turns[0]!;
    const fg = turn.attempts.filter((a) => !a.background);
    expect(fg).toHaveLength(1);
    expect(fg.filter((a) => a.error)).toHaveLength(0);
    const calls = groupBackgroundCalls(turn.attempts, s.terminate !== undefined);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ open: false, answered: undefined });
    expect(calls[0]!.attempts.map((a) => a.requestNo)).toEqual([2, 3]);
    // The wait before the title call's 2nd attempt was measured on the title call's own attempt.
    expect(calls[0]!.attempts[0]!.retry?.actualWaitMs).toBe(1000);
  });

  it('a background call that answered carries its purpose; a new call starts at attempt 1', () => {
    const s = fold([
      { event: 'iteration_start', iteration: 1, ts: 0 },
      request(1, 1, true, 0),
      answer(1, 50, true),
      request(1, 2, false, 60),
      answer(1, 100, false),
      request(1, 3, true, 110),
    ]);
    const calls = groupBackgroundCalls(s.turns[0]!.attempts, false);
    expect(calls.map((c) => [c.purpose, c.open])).toEqual([
      ['title', false],
      ['background', true],
    ]);
  });

  it('the header counts attempts as the cards do, first request included', () => {
    const s = fold([
      { event: 'iteration_start', iteration: 1, ts: 0 },
      request(1, 1, false, 0),
      error(1, 10),
      retry(1, 10, 'foreground'),
    ]);
    expect(s.reason).toBe('waiting 1 s: 429 rate limited, then attempt 2 of 4');
    const attempt = s.turns[0]!.attempts[0]!;
    expect(attempt.retry).toMatchObject({ nextAttempt: 2, maxAttempts: 4 });
    // The wait has not ended: no measured wait yet, so nothing may say "waited".
    expect(attempt.retry?.actualWaitMs).toBeUndefined();
  });

  it('folds the task verdict beside the terminate reason', () => {
    const s = fold([
      { event: 'iteration_start', iteration: 1, ts: 0 },
      {
        event: 'task_verdict',
        iteration: 1,
        verdict: 'not_done',
        check: 'test/slugify.test.js',
        detail: '2 passed, 2 failed',
        ts: 5,
      },
      end(5, 'end_turn'),
    ]);
    expect(s.status).toBe('done');
    expect(s.verdict).toMatchObject({ verdict: 'not_done', check: 'test/slugify.test.js' });
    expect(s.reason).not.toMatch(/finished its task/);
    expect(s.verdict?.testsNote).toBeUndefined();
  });

  it('says beside the verdict when the model edited a test, and what the verdict ran', () => {
    const verdict = (tests_run: 'shipped' | 'workspace', verdict: 'done' | 'not_done') =>
      fold([
        { event: 'iteration_start', iteration: 1, ts: 0 },
        {
          event: 'task_verdict',
          iteration: 1,
          verdict,
          check: 'test/slugify.test.js',
          detail: '',
          tests_run,
          tests_edited: ['test/slugify.test.js'],
          ts: 5,
        },
        end(5, 'end_turn'),
      ]).verdict;
    expect(verdict('shipped', 'not_done')?.testsNote).toBe(
      'the model edited the test file test/slugify.test.js; this verdict ran it as the scenario shipped it',
    );
    expect(verdict('workspace', 'done')?.testsNote).toBe(
      'the model edited the test file test/slugify.test.js; this verdict ran the edited copies',
    );
  });

  it('folds, beside the verdict, the shipped tests that did not run and the hidden tests, from the event fields', () => {
    const s = fold([
      { event: 'iteration_start', iteration: 1, ts: 0 },
      {
        event: 'task_verdict',
        iteration: 1,
        verdict: 'not_done',
        check: 'test/slugify.test.js',
        detail: '',
        tests_run: 'shipped',
        tests_edited: [],
        tests_missing: ['joins every word, not just the first two'],
        hidden_tests: 6,
        hidden_failed: ['collapses runs of spaces into one hyphen', 'trims hyphens already at the ends'],
        ts: 5,
      },
      end(5, 'end_turn'),
    ]);
    expect(s.verdict?.missing).toEqual({
      label: '1 shipped test did not run',
      title:
        'shipped test did not run: "joins every word, not just the first two"; the verdict requires every one, by name',
    });
    expect(s.verdict?.hidden).toEqual({
      label: '2 of 6 hidden tests failed',
      title:
        'the verdict also ran 6 hidden tests (inputs the model never saw) against the final code — hidden tests: 2 of 6 failed or did not run ' +
        '("collapses runs of spaces into one hyphen", "trims hyphens already at the ends")',
      failed: true,
    });
    const passed = fold([
      { event: 'iteration_start', iteration: 1, ts: 0 },
      {
        event: 'task_verdict',
        iteration: 1,
        verdict: 'done',
        check: 'test/slugify.test.js',
        detail: '',
        tests_missing: [],
        hidden_tests: 6,
        hidden_failed: [],
        ts: 5,
      },
      end(5, 'end_turn'),
    ]).verdict;
    expect(passed?.missing).toBeUndefined();
    expect(passed?.hidden).toMatchObject({ label: '6 hidden tests passed', failed: false });
  });

  it('one changed field is one override, however deep it sits', () => {
    expect(countOverrides({ retry: { maxRetries: 5 } })).toBe(1);
    expect(countOverrides({ retry: { maxRetries: 5, baseDelayMs: 10 }, sdkMaxRetries: 2 })).toBe(3);
    expect(countOverrides({})).toBe(0);
  });
});
