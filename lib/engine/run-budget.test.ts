import { describe, expect, it } from 'vitest';
import { PresetIdSchema, RunConfigSchema } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { describeTimeBudget } from './run-budget';

const stallAlways = {
  rules: [
    { id: 'stall', when: { kind: 'always' as const }, action: { type: 'stall' as const, afterEvents: 1 } },
  ],
  tools: [],
};

describe('run-time budget', () => {
  it('ends a stalled stream with no watchdog at the budget deadline, saying why (virtual clock)', async () => {
    const events = await runToEnd({ preset: 'naive', faults: stallAlways });
    const end = terminateOf(events);
    expect(end.reason).toBe('run_time_budget');
    expect(end.complete).toBe(false);
    expect(end.ts).toBe(1_800_000);
    expect(end.message).toBe('no watchdog: the stream stalled and the run hit its 30 min time budget');
  });

  it.each(PresetIdSchema.options)('bounds a stall in the %s preset', async (preset) => {
    const events = await runToEnd({ preset, faults: stallAlways, budgets: { maxRunMs: 600_000 } });
    const end = terminateOf(events);
    expect(end.ts).toBeLessThanOrEqual(600_000);
    expect(['run_time_budget', 'retries_exhausted', 'model_error']).toContain(end.reason);
  });

  it('takes a configured budget, and a stall before any header ends the same way', async () => {
    const events = await runToEnd({
      preset: 's11',
      budgets: { maxRunMs: 90_000 },
      faults: {
        rules: [{ id: 's', when: { kind: 'always' }, action: { type: 'stall', beforeHeaders: true } }],
        tools: [],
      },
    });
    const end = terminateOf(events);
    expect(end).toMatchObject({ reason: 'run_time_budget', ts: 90_000 });
    expect(end.message).toContain('its 90 s time budget');
  });

  it('says what the run was doing when time ran out', () => {
    expect(describeTimeBudget({ maxRunMs: 60_000, watchdogEnabled: true, last: 'content_delta' })).toBe(
      'a model stream was still open when the run hit its 60 s time budget',
    );
    expect(describeTimeBudget({ maxRunMs: 60_000, watchdogEnabled: false, last: 'retry_scheduled' })).toBe(
      'the run was waiting to retry when it hit its 60 s time budget',
    );
    expect(describeTimeBudget({ maxRunMs: 60_000, watchdogEnabled: false, last: 'tool_start' })).toContain(
      'a tool was still running',
    );
  });
});

describe('attempt budget', () => {
  it('counts every model request and ends the run when they are spent', async () => {
    // An empty stream forever, with retry and stream-error caps set high: only the attempt budget binds.
    const events = await runToEnd({
      preset: 'codesmith',
      recovery: { retry: { maxRetries: 50 }, watchdog: { baseMs: 1_000, perRetryMs: 0, streamErrorCap: 50 } },
      budgets: { maxAttempts: 7 },
      faults: {
        rules: [
          {
            id: 'k',
            when: { kind: 'always' },
            action: { type: 'keepalive_only', intervalMs: 100, style: 'ping' },
          },
        ],
        tools: [],
      },
    });
    expect(ofType(events, 'model_request')).toHaveLength(7);
    const end = terminateOf(events);
    expect(end.reason).toBe('attempt_budget');
    expect(end.message).toContain('7 model request attempts');
  });

  it('skips a background call rather than end a finished run', async () => {
    const first = await runToEnd({ preset: 'codesmith' });
    const foreground = ofType(first, 'model_request').filter((e) => !e.background).length;
    const events = await runToEnd({ preset: 'codesmith', budgets: { maxAttempts: foreground } });
    expect(terminateOf(events).reason).toBe('end_turn');
    expect(ofType(events, 'model_request').filter((e) => e.background)).toHaveLength(0);
    expect(ofType(events, 'log').map((e) => e.message)).toContain(
      "title skipped: the run's attempt budget of " + foreground + ' is spent',
    );
  });
});

describe('budget schema', () => {
  it('fills the defaults into every config and refuses endless or absurd budgets', () => {
    const config = RunConfigSchema.parse({ provider: { vendor: 'sim-openai' } });
    expect(config.budgets).toMatchObject({ maxRunMs: 1_800_000, maxAttempts: 200 });
    for (const budgets of [
      { maxRunMs: 0 },
      { maxRunMs: Infinity },
      { maxRunMs: 1e12 },
      { maxAttempts: 0 },
      { maxAttempts: 1e9 },
    ]) {
      const result = RunConfigSchema.safeParse({ provider: { vendor: 'sim-openai' }, budgets });
      expect(result.success, JSON.stringify(budgets)).toBe(false);
    }
  });

  it('refuses a stream error cap of 0, which meant endless free retries of an empty stream', () => {
    const result = RunConfigSchema.safeParse({
      provider: { vendor: 'sim-openai' },
      recovery: { watchdog: { streamErrorCap: 0 } },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['recovery', 'watchdog', 'streamErrorCap']);
  });
});
