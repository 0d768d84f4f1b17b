import { describe, expect, it } from 'vitest';
import type { FaultRule, RunConfigInput } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/**
 * The overflow waterfall through the whole loop, on the virtual clock: growing-context reads
 * twelve long runbooks on a 16k-window model, so with proactive compaction off the 15th
 * request is over the window and the simulated vendor answers "prompt is too long".
 */
const small = (
  compaction: Record<string, unknown>,
  faults: FaultRule[] = [],
): Omit<RunConfigInput, 'provider'> & { provider: RunConfigInput['provider'] } => ({
  provider: { vendor: 'sim-anthropic', model: 'claude-sim-16k' },
  scenario: 'growing-context',
  recovery: { compaction: { proactive: false, ...compaction } },
  faults: { rules: faults, tools: [] },
});

const summaryFault: FaultRule = {
  id: 'bg',
  enabled: true,
  target: 'background',
  when: { kind: 'always' },
  action: { type: 'http_error', status: 500 },
};

describe('the overflow waterfall', () => {
  it('without it the overflow ends the run (the naive path)', async () => {
    const events = await runToEnd(small({ waterfall: false }));
    expect(ofType(events, 'context_overflow')).toEqual([]);
    expect(terminateOf(events)).toMatchObject({ reason: 'model_error', complete: false });
    expect(terminateOf(events).message).toMatch(/prompt is too long/);
  });

  it('rung 1: a micro-compact clears older results, the step is resent and the run finishes', async () => {
    const events = await runToEnd(small({}));
    const [overflow] = ofType(events, 'context_overflow');
    expect(overflow).toMatchObject({
      source: 'before_stream',
      recovery_attempt: 1,
      budget: 2,
      outcome: 'recovering',
    });
    const rungs = ofType(events, 'compaction').filter((c) => c.trigger === 'overflow');
    expect(rungs.map((r) => r.step)).toEqual(['micro_compact']);
    const sent = ofType(events, 'context_sent').filter((s) => s.iteration === overflow!.iteration);
    expect(rungs[0]!.tokens_before).toBeGreaterThan(sent[0]!.window);
    expect(rungs[0]!.tokens_after).toBeLessThanOrEqual(sent[0]!.threshold);
    expect(rungs[0]!.stubbed.length).toBeGreaterThan(10);
    // The vendor accepted the compacted copy: the step's call succeeded without replaying tools.
    const calls = ofType(events, 'llm_call').filter((c) => c.iteration === overflow!.iteration);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.input_tokens).toBeLessThan(sent[0]!.threshold);
    expect(ofType(events, 'tool_call').filter((t) => t.iteration < overflow!.iteration).length).toBe(
      overflow!.iteration - 1,
    );
    expect(ofType(events, 'context_recovered')).toMatchObject([
      { iteration: overflow!.iteration, recovery_attempts: 1 },
    ]);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it('rung 2: when the micro-compact is not enough, a forced full compaction (a summary call) follows, past the threshold check', async () => {
    const events = await runToEnd(small({ thresholdRatio: 0.16 }));
    const rungs = ofType(events, 'compaction').filter((c) => c.trigger === 'overflow');
    expect(rungs.map((r) => [r.step, r.ok])).toEqual([
      ['micro_compact', true],
      ['summary', true],
    ]);
    const summary = rungs[1]!;
    expect(summary.tokens_after).toBeLessThan(summary.tokens_before);
    expect(summary.tokens_after).toBeLessThanOrEqual(Math.floor(16_000 * 0.16));
    expect(summary.summary).toMatch(/read_file \{"path":"docs\/runbooks\/accounts.md"\}/);
    // The summary call was a background request between the overflow and the resend.
    expect(
      ofType(events, 'model_request').filter((r) => r.background && r.iteration === summary.iteration),
    ).toHaveLength(1);
    const after = ofType(events, 'context_sent')
      .filter((s) => s.iteration === summary.iteration)
      .at(-1)!;
    expect(after.messages[0]).toMatchObject({ kind: 'text', origin: 'summary' });
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it('rung 3: when the summary call fails, a local hard trim drops the oldest messages but keeps the floor of 4', async () => {
    const events = await runToEnd(small({ thresholdRatio: 0.1 }, [summaryFault]));
    const step = ofType(events, 'context_overflow')[0]!.iteration;
    const rungs = ofType(events, 'compaction').filter(
      (c) => c.trigger === 'overflow' && c.iteration === step,
    );
    expect(rungs.map((r) => [r.step, r.ok])).toEqual([
      ['micro_compact', true],
      ['summary', false],
      ['hard_trim', true],
    ]);
    const trim = rungs[2]!;
    expect(trim.reason).toMatch(/local hard trim/);
    expect(trim.tokens_after).toBeLessThan(trim.tokens_before);
    const sent = ofType(events, 'context_sent')
      .filter((s) => s.iteration === trim.iteration)
      .at(-1)!;
    // A trim note, then at least 4 log messages, the first an assistant turn (a call never loses its result).
    expect(sent.messages[0]).toMatchObject({ kind: 'text', origin: 'trim_note' });
    expect(sent.messages.length - 1).toBeGreaterThanOrEqual(4);
    expect(sent.messages[1]!.kind).toBe('assistant');
    // The step went through; with no summary the model has forgotten what it read, so the run goes on (and re-reads).
    expect(ofType(events, 'context_recovered').some((r) => r.iteration === trim.iteration)).toBe(true);
    expect(ofType(events, 'llm_call').some((c) => c.iteration === trim.iteration + 1)).toBe(true);
    expect(terminateOf(events).reason).not.toBe('context_overflow');
  });

  it('honours the budget of 2: a result no rung can shrink ends the run with context_overflow after two recoveries', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic', model: 'claude-sim-16k' },
      scenario: 'huge-log',
    });
    const overflows = ofType(events, 'context_overflow');
    expect(overflows.map((o) => [o.recovery_attempt, o.outcome])).toEqual([
      [1, 'recovering'],
      [2, 'recovering'],
      [3, 'exhausted'],
    ]);
    // Two recoveries, three requests of the step to the vendor, then the end.
    const step = overflows[0]!.iteration;
    expect(ofType(events, 'model_request').filter((r) => r.iteration === step && !r.background)).toHaveLength(
      3,
    );
    expect(terminateOf(events)).toMatchObject({ reason: 'context_overflow', complete: false });
    expect(terminateOf(events).message).toMatch(/budget 2/);
  });

  it('resets the retry budget on success: the resent step gets its own three retries', async () => {
    const base = await runToEnd(small({}));
    const step = ofType(base, 'context_overflow')[0]!.iteration;
    const first = ofType(base, 'model_request').find(
      (r) => r.iteration === step && !r.background,
    )!.request_no;
    // Three overloads spend the step's whole retry budget before the overflow; one more after the resend.
    const overloads: FaultRule = {
      id: 'o',
      enabled: true,
      when: { kind: 'requests', numbers: [first, first + 1, first + 2, first + 4] },
      action: { type: 'http_error', status: 529 },
    };
    const events = await runToEnd(small({}, [overloads]));
    const retries = ofType(events, 'retry_scheduled').filter((r) => r.iteration === step);
    expect(retries.map((r) => r.next_attempt)).toEqual([2, 3, 4, 2]);
    expect(ofType(events, 'context_recovered')).toHaveLength(1);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });
});
