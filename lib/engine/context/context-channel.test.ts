import { describe, expect, it } from 'vitest';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

const growing = {
  provider: { vendor: 'sim-anthropic' as const, model: 'claude-sim-16k' },
  scenario: 'growing-context',
};

describe('the context channel through the loop', () => {
  it('records every request copy with its size against the window, estimated before and reported after', async () => {
    const events = await runToEnd({
      ...growing,
      recovery: { compaction: { proactive: false, waterfall: false } },
      budgets: { maxIterations: 8, maxCostUsd: 1 },
    });
    const sent = ofType(events, 'context_sent');
    const calls = ofType(events, 'llm_call');
    expect(sent).toHaveLength(calls.length);
    expect(sent.every((s) => s.window === 16_000 && s.threshold === 12_000)).toBe(true);
    // Each copy carries the whole log here, and the estimate tracks what the vendor reported within 10 %.
    sent.forEach((s, i) => {
      expect(s.messages).toHaveLength(s.log_messages);
      if (i > 0)
        expect(Math.abs(s.tokens_est - calls[i]!.input_tokens) / calls[i]!.input_tokens).toBeLessThan(0.1);
    });
    expect(sent.at(-1)!.tokens_est).toBeGreaterThan(sent[0]!.tokens_est * 5);
  });

  it('proactive compaction: near the threshold a summary call replaces older history, and the work carries on from the summary', async () => {
    const events = await runToEnd(growing);
    const [summary, ...more] = ofType(events, 'compaction').filter((c) => c.step === 'summary');
    expect(more).toEqual([]);
    expect(summary).toMatchObject({ trigger: 'proactive', ok: true });
    expect(summary!.tokens_before).toBeGreaterThanOrEqual(12_000);
    expect(summary!.tokens_after).toBeLessThan(summary!.tokens_before / 2);
    expect(summary!.summary).toMatch(/Done so far:\n- list_files/);
    const after = ofType(events, 'context_sent').filter((s) => s.iteration > summary!.iteration);
    expect(after.every((s) => s.messages[0]!.kind === 'text' && s.messages[0]!.origin === 'summary')).toBe(
      true,
    );
    // The vendor's reports confirm the smaller requests; no file is read twice.
    const next = ofType(events, 'llm_call').find((c) => c.iteration === summary!.iteration)!;
    expect(next.input_tokens).toBeLessThan(summary!.tokens_before / 2);
    const reads = ofType(events, 'tool_call')
      .filter((t) => t.tool === 'read_file')
      .map((t) => JSON.stringify(t.args));
    expect(new Set(reads).size).toBe(reads.length);
    expect(ofType(events, 'context_overflow')).toEqual([]);
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  it('old-result stubs are in the request copy, never in the log; each stubbing is an event', async () => {
    const events = await runToEnd({ ...growing, preset: 'course' });
    const steps = ofType(events, 'compaction').filter((c) => c.step === 'old_results');
    expect(steps.length).toBeGreaterThan(5);
    expect(steps.every((s) => s.trigger === 'routine' && s.tokens_after < s.tokens_before)).toBe(true);
    const stubbed = steps.flatMap((s) => s.stubbed);
    // Stubbed in the copy: the last request's results refs name them, with the turn they became stubs.
    const last = ofType(events, 'context_sent').at(-1)!;
    const refs = last.messages.flatMap((m) => (m.kind === 'results' ? m.stubs : []));
    expect(refs.map((r) => r.call_id).sort()).toEqual(stubbed.map((s) => s.call_id).sort());
    for (const ref of refs) {
      const step = steps.find((s) => s.stubbed.some((x) => x.call_id === ref.call_id))!;
      expect(ref.since).toBe(step.iteration);
    }
    // Absent from the log: every tool_call event keeps its full result.
    for (const s of stubbed) {
      const call = ofType(events, 'tool_call').find((t) => t.call_id === s.call_id)!;
      expect(call.result).toHaveLength(s.chars);
      expect(call.result).not.toMatch(/Older tool result cleared/);
    }
    // And the vendor really received the smaller copy: compare with the same run without stubs.
    const full = await runToEnd({
      ...growing,
      preset: 'course',
      recovery: { context: { oldResultCompaction: false } },
      budgets: { maxIterations: 10, maxCostUsd: 1 },
    });
    const withStubs = ofType(events, 'llm_call')[9]!.input_tokens;
    const without = ofType(full, 'llm_call')[9]!.input_tokens;
    expect(without - withStubs).toBeGreaterThan(4_000);
  });
});
