import { describe, expect, it } from 'vitest';
import { RunEventSchema, type EventBody, type EventOf } from '@/lib/protocol';
import { ofType, runToEnd } from '@/lib/testing/run-to-end';
import { explainEvent, isExplained, type ExplainedType } from './explain-event';
import { formatMs, formatTokens } from '../format';

/** A schema-checked event from a body (the same parse the browser does at the edge). */
function ev<T extends ExplainedType>(body: EventBody<EventOf<T>> & { event: T }): EventOf<T> {
  return RunEventSchema.parse({ run_id: 'r', seq: 1, ts: 1000, ...body }) as EventOf<T>;
}

const retry = (extra: Partial<EventBody<EventOf<'retry_scheduled'>>>) =>
  ev({
    event: 'retry_scheduled',
    iteration: 1,
    attempt: 1,
    next_attempt: 2,
    max_attempts: 4,
    category: 'rate_limit',
    rung: 'silent_retry',
    computed_delay_ms: 1043,
    wait_ms: 1043,
    reason: 'backoff 1.0 s',
    account: 'foreground',
    ...extra,
  });

describe('explainEvent: the why is true for this event', () => {
  it('a backoff wait quotes the wait and the attempt it leads to', () => {
    const x = explainEvent(retry({}))!;
    expect(x.why).toContain(formatMs(1043));
    expect(x.why).toMatch(/^Attempt 2 of 4 /);
    expect(x.why).toContain('backoff');
    expect(x.term).toBe('backoff');
  });

  it('an honoured Retry-After says the server asked, and names the backoff it replaced', () => {
    const x = explainEvent(retry({ retry_after_ms: 7000, wait_ms: 7000, computed_delay_ms: 1043 }))!;
    expect(x.why).toContain('after 7 s');
    expect(x.why).toContain('Retry-After honoured');
    expect(x.why).toContain('1 s backoff');
    expect(x.term).toBe('retry-after');
  });

  it('a Retry-After over the cap says it was capped, with both numbers', () => {
    const x = explainEvent(
      retry({ retry_after_ms: 200_000_000, wait_ms: 86_400_000, computed_delay_ms: 1000 }),
    )!;
    expect(x.why).toContain(`asked for ${formatMs(200_000_000)}`);
    expect(x.why).toContain(`capped at ${formatMs(86_400_000)}`);
  });

  it('a Retry-After the config ignores is not called honoured', () => {
    const x = explainEvent(retry({ retry_after_ms: 9000, wait_ms: 1043 }))!;
    expect(x.why).toContain('not honoured');
    expect(x.why).not.toContain('Retry-After honoured');
    expect(x.term).toBe('backoff');
  });

  it('an Empty retry goes at once; degrade and background are said', () => {
    const x = explainEvent(
      retry({
        wait_ms: 0,
        computed_delay_ms: 0,
        reason: 'empty stream: transparent retry, no backoff',
        rung: 'degrade',
        account: 'background',
        next_attempt: 3,
        attempt: 2,
      }),
    )!;
    expect(x.why).toMatch(/^Background call, attempt 3 of 4 at once/);
    expect(x.why).toContain('Degrade');
    expect(x.also).toEqual(expect.arrayContaining(['degrade', 'background-account']));
  });

  it('watchdog Empty and Partial differ, and quote the window', () => {
    const empty = explainEvent(
      ev({ event: 'watchdog_fired', iteration: 1, attempt: 2, window_ms: 150_000, outcome: 'empty' }),
    )!;
    expect(empty.why).toContain(formatMs(150_000));
    expect(empty.why).toContain('nothing was billed');
    // What the call does next is the retry decision's own event: the watchdog claims no attempt.
    expect(empty.why).not.toMatch(/attempt \d|goes out|retried/);
    expect(empty.term).toBe('empty');
    const partial = explainEvent(
      ev({ event: 'watchdog_fired', iteration: 1, attempt: 1, window_ms: 120_000, outcome: 'partial' }),
    )!;
    expect(partial.why).toContain('after content arrived');
    expect(partial.why).not.toMatch(/\bkept\b|presented/);
    expect(partial.term).toBe('partial');
  });

  it('keepalives say how many so far and that the watchdog keeps counting', () => {
    const x = explainEvent(ev({ event: 'keepalive', iteration: 1, request_no: 3, count: 7, style: 'ping' }))!;
    expect(x.why).toMatch(/^7 keepalive pings on request 3 so far/);
    expect(x.why).toContain('watchdog keeps counting');
    expect(x.term).toBe('keepalive');
  });

  it('guard pills say which guard and the budget left', () => {
    const warn = explainEvent(
      ev({
        event: 'tool_guard',
        iteration: 2,
        tool: 'edit_file',
        kind: 'warning',
        reason: 'x',
        consecutive_failures: 3,
        budget_left: 1,
      }),
    )!;
    expect(warn.why).toContain('3 consecutive tool failures');
    expect(warn.why).toContain('1 failure left');
    const off = explainEvent(
      ev({ event: 'tool_guard', iteration: 2, tool: 'run_check', kind: 'disabled', reason: 'x' }),
    )!;
    expect(off.why).toContain('run_check disabled');
    expect(off.term).toBe('failure-budget');
  });

  it('a tool call that just worked is no mechanism step; a failing one counts its budget', () => {
    const base = {
      event: 'tool_call' as const,
      iteration: 1,
      tool: 'read_file',
      args: {},
      result_chars: 10,
      latency_ms: 3,
    };
    expect(explainEvent(ev({ ...base, is_error: false, status: 'ok' }))).toBeUndefined();
    const failed = explainEvent(ev({ ...base, is_error: true, status: 'error', budget_left: 2 }))!;
    expect(failed.why).toContain('read_file has 2 failures left');
    const cut = explainEvent(ev({ ...base, is_error: false, status: 'ok', truncated_chars: 12_345 }))!;
    expect(cut.why).toContain('12,345 chars');
    expect(cut.term).toBe('truncation');
  });

  it('a compaction step quotes tokens and messages before and after', () => {
    const x = explainEvent(
      ev({
        event: 'compaction',
        iteration: 4,
        step: 'micro_compact',
        trigger: 'overflow',
        ok: true,
        tokens_before: 210_000,
        tokens_after: 150_000,
        messages_before: 30,
        messages_after: 30,
        stubbed: [],
        reason: 'r',
        recovery_attempt: 1,
      }),
    )!;
    expect(x.why).toContain(`${formatTokens(210_000)} → ${formatTokens(150_000)} tokens`);
    expect(x.why).toContain('overflow recovery 1');
    expect(x.term).toBe('micro-compact');
  });

  it('the breaker opening names its failures and when it probes', () => {
    const x = explainEvent(
      ev({
        event: 'breaker',
        iteration: 5,
        state: 'open',
        consecutive_failures: 3,
        reopen_at: 400_000,
        reason: 'r',
      }),
    )!;
    expect(x.why).toContain('3 consecutive');
    expect(x.why).toContain(formatMs(400_000));
  });

  it('output escalation quotes the old and new cap', () => {
    const x = explainEvent(
      ev({
        event: 'output_recovery',
        iteration: 1,
        action: 'escalate',
        stop_reason: 'max_tokens',
        max_tokens: 8192,
        next_max_tokens: 65_536,
        output_tokens: 8192,
        kept: false,
        reason: 'r',
      }),
    )!;
    expect(x.why).toContain(formatTokens(65_536));
    expect(x.why).toContain(`of ${formatTokens(8192)}`);
    expect(x.term).toBe('cap-escalation');
  });

  it('a retryable error says what the classifier decided and promises no retry', () => {
    const x = explainEvent(
      ev({
        event: 'model_error',
        iteration: 1,
        attempt: 4,
        message: '429',
        status: 429,
        category: 'rate_limit',
        rule: 'status:429',
        retryable: true,
        partial: false,
      }),
    )!;
    expect(x.why).toBe('429 rate limited on attempt 4 (rule status:429): classified as a retryable kind.');
    expect(x.why).not.toMatch(/retried|budget/);
  });

  it("a declined retry says the engine's own words, with the rule's term", () => {
    const body = {
      event: 'retry_declined',
      iteration: 1,
      attempt: 4,
      account: 'foreground',
      category: 'overloaded',
      attempts: 4,
      max_attempts: 4,
    } as const;
    const spent = explainEvent(
      ev({
        ...body,
        rule: 'budget_spent',
        next: 'surface',
        why: 'no retry — retry budget of 3 spent; the error surfaces and the run ends.',
      }),
    )!;
    expect(spent.why).toBe('No retry — retry budget of 3 spent; the error surfaces and the run ends.');
    expect(spent.term).toBe('retry-budget');
    const kept = explainEvent(
      ev({ ...body, rule: 'partial_kept', next: 'keep_partial', why: 'No retry — content had arrived.' }),
    )!;
    expect(kept.term).toBe('partial');
  });

  it("a fork's swap says it is a fork, not a fallback", () => {
    const x = explainEvent(
      ev({
        event: 'swap',
        iteration: 3,
        from_vendor: 'sim-anthropic',
        from_model: 'a',
        to_vendor: 'sim-openai',
        to_model: 'b',
        dialect: 'openai-chat',
        cause: 'fork',
        handling: { foreignThinking: 'drop', naive: false },
      }),
    )!;
    expect(x.why).toContain('fork');
    expect(x.why).not.toContain('fallback');
  });

  it('a swap made by hand says whether a re-run makes it too', () => {
    const swap = {
      event: 'swap',
      iteration: 3,
      from_vendor: 'sim-anthropic',
      from_model: 'a',
      to_vendor: 'sim-deepseek',
      to_model: 'b',
      dialect: 'deepseek-reasoning',
      cause: 'control',
      handling: { foreignThinking: 'drop', naive: false },
    } as const;
    const recorded = explainEvent(
      ev({ ...swap, recorded_as: { atTurn: 3, vendor: 'sim-deepseek', model: '' } }),
    )!;
    expect(recorded.why).toContain(
      "Recorded in the run's config as a swap at turn 3: a re-run swaps here too.",
    );
    const not = explainEvent(ev({ ...swap, not_recorded: 'its address or key came with the swap request' }))!;
    expect(not.why).toContain(
      "Not recorded in the run's config: its address or key came with the swap request.",
    );
  });

  it('a Partial with no output count reported does not claim nothing arrived', () => {
    const body = {
      event: 'output_recovery',
      iteration: 1,
      action: 'stop_partial',
      stop_reason: 'incomplete',
      max_tokens: 8192,
      kept: true,
      reason: 'r',
    } as const;
    const unreported = explainEvent(ev({ ...body, output_tokens: 0 }))!;
    expect(unreported.why).not.toContain('0 tokens');
    expect(unreported.why).toContain('after content arrived');
    expect(unreported.term).toBe('partial');
    expect(explainEvent(ev({ ...body, output_tokens: 412 }))!.why).toContain(
      `after ${formatTokens(412)} tokens`,
    );
  });

  it('terminate points at the mechanism that ended the run', () => {
    const x = explainEvent(
      ev({
        event: 'terminate',
        iteration: 3,
        reason: 'retries_exhausted',
        complete: false,
        usd_so_far: 0,
        input_tokens: 0,
        output_tokens: 0,
      }),
    )!;
    expect(x.why).toBe('Failed: retry budget exhausted.');
    expect(x.term).toBe('retry-budget');
  });

  it('a verdict names the shipped tests that did not run and counts the hidden tests, from its own fields', () => {
    const verdict = (fields: Partial<EventOf<'task_verdict'>>) =>
      explainEvent(
        ev({
          event: 'task_verdict',
          iteration: 3,
          verdict: 'not_done',
          check: 'test/pricing.test.js',
          detail: '',
          tests_run: 'shipped',
          ...fields,
        }),
      )!.why;
    const why = verdict({
      tests_missing: ['gross price of 100.00 in pt'],
      hidden_tests: 24,
      hidden_failed: ['an invoice line in pt'],
    });
    expect(why).toContain(
      'The verdict requires every shipped test by name; shipped test did not run: "gross price of 100.00 in pt".',
    );
    expect(why).toContain(
      'It also ran 24 hidden tests, inputs the model never saw, against the final code — hidden tests: 1 of 24 failed or did not run ("an invoice line in pt").',
    );
    expect(verdict({ verdict: 'done', tests_missing: [], hidden_tests: 6, hidden_failed: [] })).toContain(
      'hidden tests: all 6 passed.',
    );
    expect(verdict({})).not.toMatch(/hidden|by name/);
  });

  it("a verdict whose tests passed and whose check on the answer failed says so, with the scorer's own reason", () => {
    const why = explainEvent(
      ev({
        event: 'task_verdict',
        iteration: 3,
        verdict: 'not_done',
        check: 'tests/square.test.js',
        detail: '',
        scorers: [
          { id: 'visible_tests', kind: 'visible_tests', passed: true, reason: '2 of 2 passed' },
          { id: 'hidden_tests', kind: 'hidden_tests', passed: true, reason: 'all 2 passed.' },
          {
            id: 'names-file',
            kind: 'contains',
            passed: false,
            reason: 'the answer does not contain "square.js"',
          },
        ],
      }),
    )!.why;
    expect(why).toBe(
      "The scenario's check (tests/square.test.js) passed on the final workspace, but a check on the final answer failed: the task is not done, however the loop ended. " +
        'Checks on the final answer: names-file failed (the answer does not contain "square.js").',
    );
  });
});

describe('explainEvent over real runs (virtual clock)', () => {
  it('every mechanism step of a faulted run is explained with its own numbers', async () => {
    const events = await runToEnd({
      faults: {
        rules: [
          {
            id: 'a',
            enabled: true,
            when: { kind: 'requests', numbers: [1] },
            action: { type: 'http_error', status: 429, retryAfterSec: 7 },
          },
          {
            id: 'b',
            enabled: true,
            when: { kind: 'requests', numbers: [2] },
            action: { type: 'http_error', status: 529 },
          },
          {
            id: 'c',
            enabled: true,
            when: { kind: 'requests', numbers: [3] },
            action: { type: 'keepalive_only', intervalMs: 15_000, style: 'ping' },
          },
        ],
        tools: [],
      },
    });
    const explained = events.filter(isExplained);
    expect(new Set(explained.map((e) => e.event))).toEqual(
      new Set([
        'retry_scheduled',
        'model_error',
        'watchdog_fired',
        'keepalive',
        'tool_call',
        'task_verdict',
        'terminate',
      ]),
    );
    const retries = ofType(events, 'retry_scheduled');
    expect(retries).toHaveLength(3);
    for (const r of retries) {
      const x = explainEvent(r)!;
      expect(x.why.toLowerCase()).toContain(`attempt ${r.next_attempt} of ${r.max_attempts}`);
      if (r.wait_ms > 0) expect(x.why).toContain(formatMs(r.wait_ms));
    }
    expect(explainEvent(retries[0]!)!.term).toBe('retry-after');
    expect(explainEvent(retries[1]!)!.term).toBe('backoff');
    expect(explainEvent(retries[2]!)!.why).toContain('at once');
    const [fired] = ofType(events, 'watchdog_fired');
    expect(explainEvent(fired!)!.why).toContain(formatMs(fired!.window_ms));
    // The one tool call here worked: no mechanism step, so no why; everything else has one.
    for (const e of explained)
      if (e.event !== 'tool_call' || e.is_error) expect(explainEvent(e)?.why).toBeTruthy();
  });
});
