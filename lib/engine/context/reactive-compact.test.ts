import { describe, expect, it } from 'vitest';
import type { Message } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import { reactiveCut } from './reactive-compact';

const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
const call = (id: string): Message => ({
  role: 'assistant',
  parts: [{ type: 'tool_call', id, name: 'read_file', argsText: '{}' }],
});
const result = (id: string): Message => ({
  role: 'user',
  parts: [{ type: 'tool_result', callId: id, content: 'x', isError: false }],
});

describe('reactiveCut', () => {
  it('keeps the newest N messages, and the call before them when the oldest is its result', () => {
    const messages = [
      user('task'),
      call('a'),
      result('a'),
      call('b'),
      result('b'),
      call('c'),
      result('c'),
      call('d'),
    ];
    expect(reactiveCut({ messages, from: 0, keep: 5 })).toBe(3);
    // The last 2 start on a result: its call is kept with it.
    expect(reactiveCut({ messages, from: 0, keep: 2 })).toBe(5);
    expect(reactiveCut({ messages, from: 0, keep: 1 })).toBe(7);
    // As a request goes out the log ends on results: the last 5 start on one, so 6 are kept (s11's own count, never fewer).
    const asSent = messages.slice(0, 7);
    expect(asSent.length - reactiveCut({ messages: asSent, from: 0, keep: 5 })!).toBe(6);
    expect(reactiveCut({ messages, from: 0, keep: 8 })).toBeUndefined();
    expect(reactiveCut({ messages, from: 3, keep: 5 })).toBeUndefined();
  });
});

/**
 * s11 through the loop: growing-context on a 16k-window model grows until the vendor says the
 * prompt is too long; the reactive compact keeps the last 5 messages and retries once.
 */
describe('s11 reactive compact (virtual clock, simulated vendor)', () => {
  it('on prompt-too-long: keep the last 5 messages and retry; the next overflow ends the run (once per run)', async () => {
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic', model: 'claude-sim-16k' },
      scenario: 'growing-context',
      preset: 's11',
    });
    const [overflow] = ofType(events, 'context_overflow');
    expect(overflow).toMatchObject({
      source: 'before_stream',
      recovery_attempt: 1,
      budget: 1,
      outcome: 'recovering',
    });
    const [trim] = ofType(events, 'compaction').filter((c) => c.trigger === 'overflow');
    expect(trim).toMatchObject({ step: 'hard_trim', ok: true, recovery_attempt: 1 });
    expect(trim!.reason).toMatch(/reactive compact: \d+ oldest messages dropped, the last [56] kept/);
    expect(trim!.tokens_after).toBeLessThan(trim!.tokens_before);
    // The resent copy: a trim note that keeps the task in view, then the last 5 log messages (6 when the oldest is a result).
    const resent = ofType(events, 'context_sent')
      .filter((s) => s.iteration === overflow!.iteration)
      .at(-1)!;
    expect(resent.messages[0]).toMatchObject({ kind: 'text', origin: 'trim_note' });
    expect(resent.messages.length - 1).toBeGreaterThanOrEqual(5);
    expect(resent.messages.length - 1).toBeLessThanOrEqual(6);
    expect(ofType(events, 'context_recovered')[0]).toMatchObject({
      iteration: overflow!.iteration,
      recovery_attempts: 1,
    });
    // The context keeps growing; s11 has used its one reactive compact, so the next overflow ends the run.
    const later = ofType(events, 'context_overflow').slice(1);
    expect(later).toMatchObject([{ budget: 0, outcome: 'exhausted' }]);
    expect(terminateOf(events)).toMatchObject({ reason: 'context_overflow', complete: false });
    expect(terminateOf(events).message).toMatch(/the reactive compact was already used in this run/);
  });

  it('still too long after the compact: the run ends context_overflow', async () => {
    // Keeping 28 messages removes too little, so the retry is still over the window.
    const events = await runToEnd({
      provider: { vendor: 'sim-anthropic', model: 'claude-sim-16k' },
      scenario: 'growing-context',
      preset: 's11',
      recovery: { compaction: { reactiveKeepMessages: 28 } },
    });
    const overflows = ofType(events, 'context_overflow');
    expect(overflows.map((o) => [o.recovery_attempt, o.outcome])).toEqual([
      [1, 'recovering'],
      [2, 'exhausted'],
    ]);
    expect(terminateOf(events)).toMatchObject({ reason: 'context_overflow', complete: false });
  });
});
