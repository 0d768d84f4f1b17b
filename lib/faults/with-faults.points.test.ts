import { describe, expect, it } from 'vitest';
import { runThroughSdk } from './testing/sdk-harness';

type Item = {
  type?: string;
  delta?: { type?: string };
  choices?: Array<{ finish_reason?: string | null; delta?: Record<string, unknown> }>;
};
const last = (items: unknown[]): Item => items.at(-1) as Item;
/** Anthropic fixture items up to (not including) message_delta: 15 of 17. */
const ANTHROPIC_BEFORE_FINAL = 15;
/** OpenAI fixture chunks before the one with finish_reason: 6 of 8. */
const OPENAI_BEFORE_FINAL = 6;

describe('stream faults placed at a point (through the real SDKs)', () => {
  it('drop at the final delta: all content arrives, the stop reason never does', async () => {
    const a = await runThroughSdk({ dialect: 'anthropic', action: { type: 'drop', during: 'final' } });
    expect(a.items).toHaveLength(ANTHROPIC_BEFORE_FINAL);
    expect(last(a.items).type).toBe('content_block_stop');
    expect(a.error).toMatchObject({ message: 'terminated' });
    const o = await runThroughSdk({ dialect: 'openai', action: { type: 'drop', during: 'final' } });
    expect(o.items).toHaveLength(OPENAI_BEFORE_FINAL);
    expect(o.items.every((i) => (i as Item).choices?.[0]?.finish_reason == null)).toBe(true);
    expect(o.error).toMatchObject({ message: 'terminated' });
  });

  it('stall inside text: the first text piece passes, then silence until the abort', async () => {
    const a = await runThroughSdk({
      dialect: 'anthropic',
      action: { type: 'stall', during: 'text' },
      abortAfterMs: 90_000,
    });
    expect(last(a.items).delta?.type).toBe('text_delta');
    expect(a.items.filter((i) => (i as Item).delta?.type === 'text_delta')).toHaveLength(1);
    expect(a.clock.now()).toBe(90_000);
  });

  it('the vendor error event inside tool arguments replaces the rest of the stream', async () => {
    const a = await runThroughSdk({
      dialect: 'anthropic',
      action: { type: 'sse_error', during: 'tool_args', errorType: 'overloaded_error' },
    });
    expect(last(a.items).delta?.type).toBe('input_json_delta');
    expect(a.error).toMatchObject({ type: 'overloaded_error' });
    const o = await runThroughSdk({
      dialect: 'openai',
      action: { type: 'sse_error', during: 'tool_args', errorType: 'api_error' },
    });
    expect(last(o.items).choices?.[0]?.delta).toHaveProperty('tool_calls');
    expect(o.thrownAt).toBe('stream');
  });

  it('malformed at the final delta: the stop-reason record itself is cut short', async () => {
    for (const [dialect, before] of [
      ['anthropic', ANTHROPIC_BEFORE_FINAL],
      ['openai', OPENAI_BEFORE_FINAL],
    ] as const) {
      const run = await runThroughSdk({ dialect, action: { type: 'malformed', during: 'final' } });
      expect(run.items).toHaveLength(before);
      expect(run.error).toBeInstanceOf(SyntaxError);
    }
  });

  it('keepalives only, from inside thinking on: the stream stays alive and says nothing more', async () => {
    const a = await runThroughSdk({
      dialect: 'anthropic',
      action: { type: 'keepalive_only', intervalMs: 5_000, style: 'ping', during: 'thinking' },
      abortAfterMs: 60_000,
    });
    expect(last(a.items).delta?.type).toBe('thinking_delta');
    expect(a.innerCalls).toBe(1);
    expect(a.error).toBeUndefined();
    expect(a.clock.now()).toBe(60_000);
  });

  it('a slow drip placed at the final delta paces only the records from there on', async () => {
    // message_delta and message_stop remain on the Anthropic wire; the final chunk, the usage chunk and [DONE] on OpenAI's.
    const a = await runThroughSdk({
      dialect: 'anthropic',
      action: { type: 'slow_drip', delayMs: 1_000, during: 'final' },
    });
    expect(a.error).toBeUndefined();
    expect(a.clock.now()).toBe(2_000);
    const o = await runThroughSdk({
      dialect: 'openai',
      action: { type: 'slow_drip', delayMs: 1_000, during: 'final' },
    });
    expect(o.items).toHaveLength(8);
    expect(o.clock.now()).toBe(3_000);
  });

  it('a point never reached leaves the stream whole', async () => {
    const o = await runThroughSdk({ dialect: 'openai', action: { type: 'drop', during: 'thinking' } });
    expect(o.error).toBeUndefined();
    expect(o.items).toHaveLength(8);
  });

  it('a stall before headers: the vendor never answers, the request waits for its abort', async () => {
    for (const dialect of ['anthropic', 'openai'] as const) {
      const run = await runThroughSdk({
        dialect,
        action: { type: 'stall', beforeHeaders: true },
        abortAfterMs: 30_000,
      });
      expect(run.thrownAt).toBe('request');
      expect(run.items).toEqual([]);
      expect(run.innerCalls).toBe(0);
      expect(run.clock.now()).toBe(30_000);
      expect(run.injections.map((i) => i.label)).toEqual(['stall before response headers']);
    }
  });
});
