import { describe, expect, it } from 'vitest';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { runMetrics } from './run-metrics';

const overloadTwice = {
  rules: [
    {
      id: 'o',
      when: { kind: 'requests' as const, numbers: [2, 3] },
      action: { type: 'http_error' as const, status: 529 as const },
    },
  ],
};

describe('runMetrics', () => {
  it('counts failed attempts that never streamed as costing nothing, and retried errors as unseen', async () => {
    const events = await runToEnd({ faults: overloadTwice, seed: 3 });
    const m = runMetrics(events);
    expect(m.complete).toBe(true);
    expect(m.failedAttempts).toBe(2);
    expect(m.wastedTokens).toBe(0);
    expect(m.errorsSeen).toBe(0);
    expect(m.attempts).toBe(ofType(events, 'model_request').length);
    const end = terminateOf(events);
    expect(m).toMatchObject({ durationMs: end.ts, inputTokens: end.input_tokens, usd: end.usd_so_far });
  });

  it('bills a stream that failed after it began: the retried request’s input plus what streamed', async () => {
    // The in-stream error comes after content started, before any of it could be kept.
    const faults = {
      rules: [
        {
          id: 'e',
          when: { kind: 'requests' as const, numbers: [2] },
          action: { type: 'sse_error' as const, afterEvents: 1, errorType: 'overloaded_error' as const },
        },
      ],
    };
    const events = await runToEnd({ faults, seed: 3 });
    const m = runMetrics(events);
    const retried = ofType(events, 'llm_call').find((c) => c.iteration === 2)!;
    expect(m.failedAttempts).toBe(1);
    expect(m.wastedTokens).toBeGreaterThanOrEqual(retried.input_tokens);
    expect(m.wastedUsd).toBeGreaterThan(0);
    expect(m.errorsSeen).toBe(0);
  });

  it('counts an error no retry absorbed as one a user saw (naive preset)', async () => {
    const events = await runToEnd({ faults: overloadTwice, seed: 3, preset: 'naive' });
    const m = runMetrics(events);
    expect(m.complete).toBe(false);
    expect(m.errorsSeen).toBe(1);
    expect(m.failedAttempts).toBe(1);
  });

  it('counts a "prompt is too long" the overflow waterfall recovered from as unseen, and one it could not as seen', async () => {
    const config = {
      provider: { vendor: 'sim-anthropic' as const, model: 'claude-sim-16k' },
      scenario: 'growing-context',
      seed: 47,
      recovery: { compaction: { proactive: false } },
    };
    const recovered = runMetrics(await runToEnd(config));
    expect(recovered).toMatchObject({ complete: true, failedAttempts: 1, errorsSeen: 0 });
    const unrecovered = runMetrics(
      await runToEnd({ ...config, recovery: { compaction: { proactive: false, waterfall: false } } }),
    );
    expect(unrecovered).toMatchObject({ complete: false, failedAttempts: 1, errorsSeen: 1 });
  });

  it('reads the task verdict apart from how the loop ended: a model that gives up completes its loop, not its task', async () => {
    const events = await runToEnd({
      faults: { rules: [], tools: [{ id: 'e', tool: 'edit_file', enabled: true, kind: 'throw' }] },
    });
    const m = runMetrics(events);
    expect(m.complete).toBe(true);
    expect(m.verdict).toBe('not_done');
    expect(runMetrics(await runToEnd({})).verdict).toBe('done');
  });
});
