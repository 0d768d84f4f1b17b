import { describe, expect, it } from 'vitest';
import type { FaultAction } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/**
 * Every fault kind not covered by the ladder tests, on both simulated vendors (virtual
 * clock, CodeSmith preset): what the classifier calls it and whether the run survives. A 404 or
 * 413 on one request is retried by CodeSmith's exclusion rule and the resend gets through.
 */
const CASES: {
  name: string;
  action: FaultAction;
  category?: string;
  retried: boolean;
  completes: boolean;
}[] = [
  {
    name: '403 permission',
    action: { type: 'http_error', status: 403 },
    category: 'authorization',
    retried: false,
    completes: false,
  },
  {
    name: '404 not found',
    action: { type: 'http_error', status: 404 },
    category: 'invalid_input',
    retried: true,
    completes: true,
  },
  {
    name: '408 request timeout',
    action: { type: 'http_error', status: 408 },
    category: 'timeout',
    retried: true,
    completes: true,
  },
  {
    name: '409 conflict',
    action: { type: 'http_error', status: 409 },
    category: 'state',
    retried: true,
    completes: true,
  },
  {
    name: '413 too large',
    action: { type: 'http_error', status: 413 },
    category: 'invalid_input',
    retried: true,
    completes: true,
  },
  { name: '503 unavailable', action: { type: 'http_error', status: 503 }, retried: true, completes: true },
  {
    name: '504 gateway timeout',
    action: { type: 'http_error', status: 504 },
    category: 'timeout',
    retried: true,
    completes: true,
  },
  {
    name: 'proxy 502 as plain text',
    action: { type: 'proxy_error', status: 502, body: 'text' },
    retried: true,
    completes: true,
  },
  {
    name: 'connection refused',
    action: { type: 'connection', mode: 'refused' },
    category: 'network',
    retried: true,
    completes: true,
  },
  {
    name: 'stall right after headers',
    action: { type: 'stall', afterEvents: 0 },
    category: 'timeout',
    retried: true,
    completes: true,
  },
  {
    name: 'rate-limit error event in the stream',
    action: { type: 'sse_error', afterEvents: 1, errorType: 'rate_limit_error' },
    category: 'rate_limit',
    retried: true,
    completes: true,
  },
];

describe.each(['sim-anthropic', 'sim-openai'] as const)('fault kinds on %s', (vendor) => {
  it.each(CASES)('$name', async ({ action, category, retried, completes }) => {
    const events = await runToEnd({
      provider: { vendor },
      faults: {
        rules: [{ id: 'f', enabled: true, when: { kind: 'requests', numbers: [1] }, action }],
        tools: [],
      },
    });
    const [error] = ofType(events, 'model_error');
    expect(error).toBeDefined();
    if (category) expect(error!.category).toBe(category);
    expect(ofType(events, 'retry_scheduled').length > 0).toBe(retried);
    expect(terminateOf(events).complete).toBe(completes);
  });

  it('a slow drip is slow, not an error: every record waits, the watchdog never fires', async () => {
    const events = await runToEnd({
      provider: { vendor },
      faults: {
        rules: [
          {
            id: 'd',
            enabled: true,
            when: { kind: 'requests', numbers: [1] },
            action: { type: 'slow_drip', delayMs: 2_000 },
          },
        ],
        tools: [],
      },
    });
    expect(ofType(events, 'model_error')).toEqual([]);
    const first = ofType(events, 'llm_call')[0]!;
    expect(first.latency_ms).toBeGreaterThan(10_000);
    expect(terminateOf(events).complete).toBe(true);
  });

  it('a drop inside tool-call arguments keeps what arrived (Partial) and drops the half-sent call', async () => {
    // With the project's continuation after a Partial, so the run can finish; the seed's default stops there.
    const events = await runToEnd({
      provider: { vendor },
      recovery: { output: { continueAfterPartial: true } },
      faults: {
        rules: [
          {
            id: 'd',
            enabled: true,
            when: { kind: 'requests', numbers: [1] },
            action: { type: 'drop', during: 'tool_args' },
          },
        ],
        tools: [],
      },
    });
    const [error] = ofType(events, 'model_error');
    expect(error).toMatchObject({ partial: true, category: 'network' });
    const first = ofType(events, 'llm_call')[0]!;
    expect(first.partial).toBe(true);
    expect(first.message?.parts.some((p) => p.type === 'tool_call')).toBe(false);
    expect(terminateOf(events).complete).toBe(true);
  });
});

describe('a drop inside thinking (Anthropic)', () => {
  it('keeps the thinking that arrived; the seed presents it and stops, the continuation option goes on', async () => {
    const rules = {
      rules: [
        {
          id: 'd',
          enabled: true,
          when: { kind: 'requests' as const, numbers: [1] },
          action: { type: 'drop' as const, during: 'thinking' as const },
        },
      ],
      tools: [],
    };
    const seed = await runToEnd({ faults: rules });
    expect(ofType(seed, 'model_error')[0]).toMatchObject({ partial: true });
    expect(terminateOf(seed)).toMatchObject({ reason: 'partial_response', complete: false });
    const option = await runToEnd({ faults: rules, recovery: { output: { continueAfterPartial: true } } });
    expect(terminateOf(option).complete).toBe(true);
  });
});
