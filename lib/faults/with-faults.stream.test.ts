import { describe, expect, it } from 'vitest';
import { createRandom, VirtualClock } from '@/lib/clock';
import type { FaultAction, FaultPlan } from '@/lib/protocol';
import { cannedSseFetch } from './testing/canned-fetch';
import { loadFixture } from './testing/fixtures';
import { runThroughSdk } from './testing/sdk-harness';
import { withFaults, type FaultInjection } from './with-faults';

const type = (item: Record<string, unknown>): unknown => item.type;
/** Anthropic fixture as the SDK yields it (the ping is dropped): 17 events. */
const ANTHROPIC_EVENTS = 17;
/** OpenAI fixture as the SDK yields it ([DONE] is not an item): 8 chunks. */
const OPENAI_CHUNKS = 8;

describe('withFaults: stream faults through the real SDKs', () => {
  it('passes a clean stream through untouched (LF and CRLF)', async () => {
    for (const lineEnding of ['lf', 'crlf'] as const) {
      const a = await runThroughSdk({
        dialect: 'anthropic',
        lineEnding,
        action: { type: 'slow_drip', delayMs: 1 },
        when: { kind: 'requests', numbers: [99] },
      });
      expect(a.items).toHaveLength(ANTHROPIC_EVENTS);
      expect(a.injections).toEqual([]);
      const o = await runThroughSdk({ dialect: 'openai', lineEnding });
      expect(o.items).toHaveLength(OPENAI_CHUNKS);
    }
  });

  it('slow_drip: every record waits delayMs on the clock, content intact', async () => {
    const a = await runThroughSdk({
      dialect: 'anthropic',
      action: { type: 'slow_drip', delayMs: 250 },
      lineEnding: 'crlf',
    });
    expect(a.error).toBeUndefined();
    expect(a.items).toHaveLength(ANTHROPIC_EVENTS);
    expect(a.clock.now()).toBe(18 * 250); // 18 records on the wire, the ping included
    const o = await runThroughSdk({ dialect: 'openai', action: { type: 'slow_drip', delayMs: 1000 } });
    expect(o.items).toHaveLength(OPENAI_CHUNKS);
    expect(o.clock.now()).toBe(9 * 1000);
  });

  it('stall: afterEvents records, then silence until the signal aborts; the request ends', async () => {
    const a = await runThroughSdk({
      dialect: 'anthropic',
      action: { type: 'stall', afterEvents: 3 },
      abortAfterMs: 120_000,
    });
    // message_start, content_block_start, (ping): the SDK ends quietly on the abort.
    expect(a.items.map(type)).toEqual(['message_start', 'content_block_start']);
    expect(a.clock.now()).toBe(120_000);
    expect(a.injections).toEqual([expect.objectContaining({ label: 'stall after 3 events' })]);
    const o = await runThroughSdk({
      dialect: 'openai',
      action: { type: 'stall', afterEvents: 0 },
      abortAfterMs: 5_000,
    });
    expect(o.items).toEqual([]);
    expect(o.clock.now()).toBe(5_000);
  });

  it('drop after N records: the SDK throws undici’s TypeError("terminated") mid-iteration', async () => {
    for (const dialect of ['anthropic', 'openai'] as const) {
      const run = await runThroughSdk({ dialect, action: { type: 'drop', afterEvents: 2 } });
      expect(run.thrownAt).toBe('stream');
      expect(run.items).toHaveLength(2);
      expect(run.error).toBeInstanceOf(TypeError);
      expect(run.error).toMatchObject({ message: 'terminated', cause: { code: 'UND_ERR_SOCKET' } });
    }
  });

  it('drop during text / tool args / thinking cuts inside the first block of that kind (Anthropic)', async () => {
    const cases = [
      ['thinking', 'thinking_delta'],
      ['text', 'text_delta'],
      ['tool_args', 'input_json_delta'],
    ] as const;
    for (const [during, deltaType] of cases) {
      const run = await runThroughSdk({ dialect: 'anthropic', action: { type: 'drop', during } });
      expect(run.thrownAt).toBe('stream');
      const last = run.items.at(-1) as { type: string; delta: { type: string; partial_json?: string } };
      expect(last.type).toBe('content_block_delta');
      expect(last.delta.type).toBe(deltaType);
      // The first piece that carries content passes; an empty piece (the `partial_json: ""` opening a tool call) does not count.
      const pieces = run.items.filter((i) => (i as { delta?: { type: string } }).delta?.type === deltaType);
      expect(pieces).toHaveLength(deltaType === 'input_json_delta' ? 2 : 1);
      if (deltaType === 'input_json_delta') expect(last.delta.partial_json).not.toBe('');
    }
  });

  it('drop during text / tool args (OpenAI) and thinking (DeepSeek reasoning_content)', async () => {
    const text = await runThroughSdk({ dialect: 'openai', action: { type: 'drop', during: 'text' } });
    expect(text.items).toHaveLength(2);
    const tool = await runThroughSdk({ dialect: 'openai', action: { type: 'drop', during: 'tool_args' } });
    expect(tool.items).toHaveLength(5); // the call's header fragment has empty arguments
    const thinking = await runThroughSdk({
      dialect: 'openai',
      fixture: 'deepseek-chat-reasoning',
      action: { type: 'drop', during: 'thinking' },
    });
    expect(thinking.items).toHaveLength(2);
    expect(thinking.error).toMatchObject({ message: 'terminated' });
  });

  it('sse_error: the vendor’s own in-stream error, then the connection closes', async () => {
    const a = await runThroughSdk({
      dialect: 'anthropic',
      action: { type: 'sse_error', afterEvents: 4, errorType: 'overloaded_error' },
    });
    expect(a.items).toHaveLength(3); // 4 records on the wire, one of them the ping
    expect(a.thrownAt).toBe('stream');
    expect(a.error).toMatchObject({
      status: undefined,
      type: 'overloaded_error',
      error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    const o = await runThroughSdk({
      dialect: 'openai',
      action: { type: 'sse_error', afterEvents: 1, errorType: 'rate_limit_error' },
    });
    expect(o.items).toHaveLength(1);
    expect(o.error).toMatchObject({ status: undefined, code: 'rate_limit_exceeded', type: 'tokens' });
  });

  it('malformed: a record cut short makes the SDK throw a SyntaxError', async () => {
    for (const dialect of ['anthropic', 'openai'] as const) {
      const run = await runThroughSdk({ dialect, action: { type: 'malformed', afterEvents: 2 } });
      expect(run.items).toHaveLength(2);
      expect(run.error).toBeInstanceOf(SyntaxError);
    }
    // Past the end of the stream the cut record still arrives.
    const late = await runThroughSdk({ dialect: 'openai', action: { type: 'malformed', afterEvents: 50 } });
    expect(late.items).toHaveLength(OPENAI_CHUNKS);
    expect(late.error).toBeUndefined(); // after [DONE] the OpenAI SDK stops looking
    const lateA = await runThroughSdk({
      dialect: 'anthropic',
      action: { type: 'malformed', afterEvents: 50 },
    });
    expect(lateA.error).toBeInstanceOf(SyntaxError);
  });

  it('keepalive_only: pings or comments on the clock, no content, until aborted', async () => {
    for (const dialect of ['anthropic', 'openai'] as const) {
      const run = await runThroughSdk({
        dialect,
        action: { type: 'keepalive_only', intervalMs: 1_000, style: 'ping' },
        abortAfterMs: 10_500,
      });
      expect(run.items).toEqual([]);
      expect(run.error).toBeUndefined();
      expect(run.clock.now()).toBe(10_500);
      expect(run.innerCalls).toBe(0);
    }
  });
});

/** Reads a faulted body directly, for byte-level assertions. */
async function readBody(options: {
  dialect: 'anthropic' | 'openai';
  action: FaultAction;
  abortAtMs?: number;
}) {
  const clock = new VirtualClock();
  const plan: FaultPlan = {
    rules: [{ id: 'r', enabled: true, when: { kind: 'always' }, action: options.action }],
    tools: [],
  };
  const fetch = withFaults({
    fetch: cannedSseFetch({ sse: loadFixture('anthropic-thinking-text-tool') }),
    dialect: options.dialect,
    plan: () => plan,
    clock,
    random: createRandom(1),
    onInject: () => undefined,
  });
  const abort = new AbortController();
  if (options.abortAtMs !== undefined)
    void clock.sleep(options.abortAtMs).then(() => abort.abort(new DOMException('watchdog', 'TimeoutError')));
  const response = await fetch('http://x/v1/messages', { signal: abort.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error, clock, response };
  }
  return { text, clock, response };
}

describe('withFaults: bytes on the wire', () => {
  it('keepalive_only writes Anthropic pings (or comments) every intervalMs and errors with the abort reason', async () => {
    const ping = await readBody({
      dialect: 'anthropic',
      action: { type: 'keepalive_only', intervalMs: 1_000, style: 'ping' },
      abortAtMs: 3_500,
    });
    expect(ping.text).toBe('event: ping\ndata: {"type": "ping"}\n\n'.repeat(3));
    expect(ping.error).toMatchObject({ name: 'TimeoutError', message: 'watchdog' });
    expect(ping.response.headers.get('content-type')).toContain('text/event-stream');
    const comment = await readBody({
      dialect: 'openai',
      action: { type: 'keepalive_only', intervalMs: 500, style: 'ping' },
      abortAtMs: 1_200,
    });
    expect(comment.text).toBe(': keepalive\n\n: keepalive\n\n');
  });

  it('stall errors the body with the abort reason; sse_error writes the exact Anthropic error record', async () => {
    const stalled = await readBody({
      dialect: 'anthropic',
      action: { type: 'stall', afterEvents: 1 },
      abortAtMs: 60_000,
    });
    expect(stalled.text.startsWith('event: message_start\n')).toBe(true);
    expect(stalled.error).toMatchObject({ name: 'TimeoutError' });
    expect(stalled.clock.now()).toBe(60_000);
    const err = await readBody({
      dialect: 'anthropic',
      action: { type: 'sse_error', afterEvents: 0, errorType: 'overloaded_error' },
    });
    expect(err.text).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    );
  });

  it('every stream fault ends when the request is aborted (no hang)', async () => {
    const actions: FaultAction[] = [
      { type: 'stall', afterEvents: 0 },
      { type: 'slow_drip', delayMs: 600_000 },
      { type: 'keepalive_only', intervalMs: 600_000, style: 'comment' },
    ];
    for (const action of actions) {
      const run = await readBody({ dialect: 'anthropic', action, abortAtMs: 1_000 });
      expect(run.error).toMatchObject({ name: 'TimeoutError' });
      expect(run.clock.now()).toBe(1_000);
    }
  });
});

describe('withFaults: plan and injections', () => {
  it('reads the plan at every request, counts requests from 1 and reports each injection', async () => {
    let plan: FaultPlan = { rules: [], tools: [] };
    const injections: FaultInjection[] = [];
    const inner = cannedSseFetch({ sse: loadFixture('openai-chat-text-tool') });
    const fetch = withFaults({
      fetch: inner,
      dialect: 'openai',
      plan: () => plan,
      clock: new VirtualClock(),
      random: createRandom(5),
      onInject: (i) => injections.push(i),
    });
    expect((await fetch('http://x/chat/completions')).status).toBe(200);
    plan = {
      rules: [
        {
          id: 'boom',
          label: 'my 500',
          enabled: true,
          when: { kind: 'next', count: 1 },
          action: { type: 'http_error', status: 500 },
        },
      ],
      tools: [],
    };
    expect((await fetch('http://x/chat/completions')).status).toBe(500);
    expect((await fetch('http://x/chat/completions')).status).toBe(200);
    expect(injections).toEqual([{ requestNo: 2, rule: plan.rules[0], label: 'my 500' }]);
    expect(inner.calls).toBe(2);
  });
});
