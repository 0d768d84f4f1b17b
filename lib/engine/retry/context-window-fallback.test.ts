import { describe, expect, it } from 'vitest';
import { presetPolicy, resolveRecovery, type RetryPolicy } from '@/lib/protocol';
import type { ModelRequest } from '@/lib/providers/types';
import { apiError, textResponse, type ScriptedResponse } from '@/lib/providers/scripted-provider';
import { ofType, terminateOf } from '@/lib/testing/run-to-end';
import { runScripted } from '@/lib/testing/run-scripted';

const tooLong = apiError({
  status: 400,
  type: 'invalid_request_error',
  message: 'prompt is too long: 17000 tokens > 16000 maximum',
});

/** Answers the background title call; foreground requests from `turns`, in order. */
function script(turns: ScriptedResponse[]) {
  let n = 0;
  return (request: ModelRequest): ScriptedResponse => {
    if (request.tools.length === 0) return textResponse({ text: 'A title' });
    const next = turns[n++];
    if (!next) throw new Error(`no turn scripted for foreground request ${n}`);
    return next;
  };
}
const foreground = (requests: ModelRequest[]) => requests.filter((r) => r.tools.length > 0);

/** A preset's own policy with a larger-window model named for overflows. */
function withContextWindow(preset: 'course' | 'codesmith'): RetryPolicy {
  return { ...presetPolicy(resolveRecovery(preset)), contextWindow: { model: 'claude-sim-sonnet' } };
}

describe('the context-window fallback', () => {
  it('on an overflow the run moves to the larger-window model and resends at once, without spending a retry (course: retry off)', async () => {
    const { events, requests } = await runScripted({
      preset: 'course',
      model: 'claude-sim-16k',
      recovery: { policy: withContextWindow('course') },
      script: script([{ parts: [], end: { kind: 'error', error: tooLong } }, textResponse({ text: 'done' })]),
    });
    expect(ofType(events, 'fallback')).toMatchObject([
      { from_model: 'claude-sim-16k', to_model: 'claude-sim-sonnet', cause: 'context_window' },
    ]);
    expect(ofType(events, 'fallback')[0]!.reason).toContain('window 16,000 → 32,000 tokens');
    expect(foreground(requests).map((r) => r.model)).toEqual(['claude-sim-16k', 'claude-sim-sonnet']);
    // Retry is off in course: the resend is a move, not a retry, and says so.
    expect(ofType(events, 'retry_scheduled')).toMatchObject([
      {
        category: 'context_length',
        wait_ms: 0,
        policy_row: { row: 'context_length', used: 0, backoff_source: 'immediate' },
      },
    ]);
    expect(ofType(events, 'retry_declined')).toEqual([]);
    expect(terminateOf(events)).toMatchObject({ complete: true });
  });

  it('once per run, before the context channel: an overflow on the larger model goes to the waterfall (CodeSmith)', async () => {
    const { events, requests } = await runScripted({
      preset: 'codesmith',
      model: 'claude-sim-16k',
      recovery: { policy: withContextWindow('codesmith') },
      script: script([
        { parts: [], end: { kind: 'error', error: tooLong } },
        { parts: [], end: { kind: 'error', error: tooLong } },
        textResponse({ text: 'done' }),
      ]),
    });
    expect(ofType(events, 'fallback')).toHaveLength(1);
    const moved = ofType(events, 'fallback')[0]!;
    const [overflow] = ofType(events, 'context_overflow');
    expect(overflow!.seq).toBeGreaterThan(moved.seq);
    expect(
      foreground(requests)
        .slice(1)
        .every((r) => r.model === 'claude-sim-sonnet'),
    ).toBe(true);
  });

  it('without it, the same overflow goes straight to the context channel (the preset’s own policy)', async () => {
    const { events } = await runScripted({
      preset: 'codesmith',
      model: 'claude-sim-16k',
      script: script([{ parts: [], end: { kind: 'error', error: tooLong } }, textResponse({ text: 'done' })]),
    });
    expect(ofType(events, 'fallback')).toEqual([]);
    expect(ofType(events, 'context_overflow')).toHaveLength(1);
  });
});
