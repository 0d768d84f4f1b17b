import { describe, expect, it } from 'vitest';
import { resolveRecovery } from '@/lib/protocol';
import { MATRIX_FAULTS } from './fault-kinds';
import { promiseFor } from './promise-rules';

const fault = (id: string) => MATRIX_FAULTS.find((f) => f.id === id)!.effect;

describe('promiseFor: promises follow the effective config, not the preset’s name', () => {
  it('a retryable error: retried with retry on, model_error with it off, retries_exhausted with a budget of 0', () => {
    expect(
      promiseFor({
        effect: fault('drop'),
        point: 'after_first_event',
        recovery: resolveRecovery('codesmith'),
      }),
    ).toMatchObject({
      ending: 'completes',
      path: 'loop_retry',
    });
    expect(
      promiseFor({
        effect: fault('drop'),
        point: 'after_first_event',
        recovery: resolveRecovery('codesmith', { retry: { enabled: false } }),
      }),
    ).toMatchObject({ ending: 'model_error' });
    expect(
      promiseFor({
        effect: fault('drop'),
        point: 'after_first_event',
        recovery: resolveRecovery('codesmith', { retry: { maxRetries: 0 } }),
      }),
    ).toMatchObject({ ending: 'retries_exhausted' });
    // naive with retry switched on promises what CodeSmith does.
    expect(
      promiseFor({
        effect: fault('http-529'),
        point: 'before_headers',
        recovery: resolveRecovery('naive', { retry: { enabled: true, maxRetries: 2 } }),
      }),
    ).toMatchObject({ ending: 'completes', path: 'loop_retry' });
  });

  it('a ladder that retries only rate limits and overloads (s11) surfaces everything else', () => {
    const s11 = resolveRecovery('s11');
    expect(promiseFor({ effect: fault('http-429'), point: 'before_headers', recovery: s11 })).toMatchObject({
      path: 'loop_retry',
    });
    expect(
      promiseFor({ effect: fault('sse-error'), point: 'after_first_event', recovery: s11 }),
    ).toMatchObject({ path: 'loop_retry' });
    expect(promiseFor({ effect: fault('connection'), point: 'before_headers', recovery: s11 })).toMatchObject(
      { ending: 'model_error' },
    );
    expect(
      promiseFor({
        effect: fault('connection'),
        point: 'before_headers',
        recovery: resolveRecovery('s11', { retry: { retryOn: 'transient' } }),
      }),
    ).toMatchObject({ path: 'loop_retry' });
  });

  it('authentication is never retried by the loop, nor by the SDK', () => {
    for (const preset of ['codesmith', 'sdk-default'] as const) {
      expect(
        promiseFor({ effect: fault('http-401'), point: 'before_headers', recovery: resolveRecovery(preset) }),
      ).toMatchObject({ ending: 'model_error' });
    }
  });

  it('SDK retries cover errors before headers only', () => {
    const sdk = resolveRecovery('sdk-default');
    expect(promiseFor({ effect: fault('connection'), point: 'before_headers', recovery: sdk })).toMatchObject(
      { path: 'sdk_retry' },
    );
    expect(promiseFor({ effect: fault('drop'), point: 'after_first_event', recovery: sdk })).toMatchObject({
      ending: 'model_error',
    });
  });

  it('silence: the watchdog decides Empty or Partial; without it only the run budget ends the wait', () => {
    const withWatchdog = resolveRecovery('s11', { watchdog: { enabled: true } });
    expect(
      promiseFor({ effect: fault('stall'), point: 'after_first_event', recovery: withWatchdog }),
    ).toMatchObject({ path: 'watchdog_empty' });
    expect(
      promiseFor({ effect: fault('keepalive'), point: 'mid_text', recovery: withWatchdog }),
    ).toMatchObject({ path: 'partial_kept' });
    expect(
      promiseFor({
        effect: fault('stall'),
        point: 'mid_text',
        recovery: resolveRecovery('codesmith', { watchdog: { enabled: false } }),
      }),
    ).toMatchObject({
      ending: 'run_time_budget',
    });
    expect(
      promiseFor({
        effect: fault('stall'),
        point: 'before_headers',
        recovery: resolveRecovery('codesmith', { watchdog: { streamErrorCap: 1 } }),
      }),
    ).toMatchObject({ ending: 'retries_exhausted' });
    // The Empty retry spends the retry budget: with none left the call fails.
    expect(
      promiseFor({
        effect: fault('stall'),
        point: 'after_first_event',
        recovery: resolveRecovery('codesmith', { retry: { maxRetries: 0 } }),
      }),
    ).toMatchObject({ ending: 'retries_exhausted' });
  });

  it('content kept by the Partial rule is not retried, whatever the error', () => {
    expect(
      promiseFor({
        effect: fault('sse-error'),
        point: 'final_delta',
        recovery: resolveRecovery('codesmith'),
      }),
    ).toMatchObject({ path: 'partial_kept' });
    expect(
      promiseFor({ effect: fault('sse-error'), point: 'final_delta', recovery: resolveRecovery('s11') }),
    ).toMatchObject({ path: 'loop_retry' });
  });

  it('a kept Partial: its finished tool calls run; otherwise the continuation option decides', () => {
    const codesmith = resolveRecovery('codesmith');
    expect(
      promiseFor({ effect: fault('drop'), point: 'final_delta', recovery: codesmith, keptToolCall: true }),
    ).toMatchObject({
      ending: 'completes',
      path: 'partial_kept',
    });
    expect(promiseFor({ effect: fault('drop'), point: 'mid_text', recovery: codesmith })).toMatchObject({
      ending: 'partial_response',
      path: 'partial_kept',
    });
    expect(
      promiseFor({
        effect: fault('drop'),
        point: 'mid_text',
        recovery: resolveRecovery('codesmith', { output: { continueAfterPartial: true } }),
      }),
    ).toMatchObject({ ending: 'completes', path: 'partial_kept' });
  });

  it('a slow drip is only slow under the window, and silence past it', () => {
    expect(
      promiseFor({ effect: fault('slow-drip'), point: 'mid_text', recovery: resolveRecovery('codesmith') }),
    ).toMatchObject({ path: 'untouched' });
    expect(
      promiseFor({
        effect: fault('slow-drip'),
        point: 'mid_text',
        recovery: resolveRecovery('codesmith', { watchdog: { baseMs: 1_000 } }),
      }),
    ).toMatchObject({ path: 'partial_kept' });
  });
});
