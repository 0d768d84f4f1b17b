import { describe, expect, it } from 'vitest';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';

/** The background title call at the end of a run: its own account, its own categories. */
describe('background calls', () => {
  it('a finished run gets a title from a background request', async () => {
    const events = await runToEnd({});
    const background = ofType(events, 'model_request').filter((r) => r.background);
    expect(background).toHaveLength(1);
    expect(ofType(events, 'run_title')[0]?.title).toBe('Fix a failing test');
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });

  /** The request number of the title call in an unfaulted run (the last request). */
  async function titleRequestNo(): Promise<number> {
    const events = await runToEnd({});
    return ofType(events, 'model_request').find((r) => r.background)!.request_no;
  }

  it('retries a rate-limited title call on its own account (CodeSmith: 3 retries), honouring Retry-After', async () => {
    const n = await titleRequestNo();
    const events = await runToEnd({
      faults: {
        rules: [
          {
            id: 'r',
            enabled: true,
            when: { kind: 'requests', numbers: [n] },
            action: { type: 'http_error', status: 429, retryAfterSec: 2 },
          },
        ],
        tools: [],
      },
    });
    const retries = ofType(events, 'retry_scheduled').filter((r) => r.reason.startsWith('background'));
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({
      category: 'rate_limit',
      wait_ms: 2000,
      max_attempts: 4,
      account: 'background',
    });
    expect(ofType(events, 'run_title')).toHaveLength(1);
  });

  it('asks for the title from the task alone: the request is the same whether the run fixed the bug or not', async () => {
    const titleTokens = (events: Awaited<ReturnType<typeof runToEnd>>) =>
      ofType(events, 'llm_call').find((c) => c.purpose === 'title')?.input_tokens;
    const fixed = await runToEnd({});
    // Every edit throws: the model still ends with its own account of the work, a different text.
    const failed = await runToEnd({
      faults: { rules: [], tools: [{ id: 'no-edit', tool: 'edit_file', kind: 'throw' }] },
    });
    expect(ofType(failed, 'task_verdict')[0]?.verdict).toBe('not_done');
    expect(titleTokens(fixed)).toBeGreaterThan(0);
    expect(titleTokens(failed)).toBe(titleTokens(fixed));
  });

  it('is a model call like any other: an llm_call in the log, its tokens and cost in the run totals', async () => {
    const events = await runToEnd({});
    const calls = ofType(events, 'llm_call');
    const title = calls.filter((c) => c.background);
    expect(title).toHaveLength(1);
    expect(title[0]).toMatchObject({ purpose: 'title' });
    expect(title[0]!.input_tokens).toBeGreaterThan(0);
    const end = terminateOf(events);
    expect(end.input_tokens).toBe(calls.reduce((sum, c) => sum + c.input_tokens, 0));
    expect(end.output_tokens).toBe(calls.reduce((sum, c) => sum + c.output_tokens, 0));
    expect(end.usd_so_far).toBe(title[0]!.usd_so_far);
  });

  it('does not retry an overloaded title call (not a background category): the run ends the same', async () => {
    const n = await titleRequestNo();
    const events = await runToEnd({
      faults: {
        rules: [
          {
            id: 'o',
            enabled: true,
            when: { kind: 'requests', numbers: [n] },
            action: { type: 'http_error', status: 529 },
          },
        ],
        tools: [],
      },
    });
    expect(ofType(events, 'retry_scheduled').filter((r) => r.reason.startsWith('background'))).toEqual([]);
    expect(ofType(events, 'run_title')).toEqual([]);
    expect(ofType(events, 'log').at(-1)?.message).toMatch(
      /title skipped: overloaded is not retried for background calls/,
    );
    expect(terminateOf(events)).toMatchObject({ reason: 'end_turn', complete: true });
  });
});
