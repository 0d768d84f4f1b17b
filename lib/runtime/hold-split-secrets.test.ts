import { describe, expect, it } from 'vitest';
import { RunConfigSchema, type EventOf, type RunEvent } from '@/lib/protocol';
import { ofType } from '@/lib/testing/run-to-end';
import { launchRun } from './launch-run';
import { createSplitSecretHold } from './hold-split-secrets';
import { createRedactor, REDACTED } from './redact-secrets';

const KEY = 'sk-canary-REQUEST-0123456789abcdef0123';
const HALVES = [KEY.slice(0, 20), KEY.slice(20)] as const;

/** An Anthropic stream whose text echoes the key in two deltas, the second 300 ms after the first. */
function splitEcho(): Response {
  const frame = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      send(
        frame('message_start', {
          message: {
            id: 'msg_split',
            type: 'message',
            role: 'assistant',
            model: 'claude-sim-sonnet',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 40, output_tokens: 1 },
          },
        }),
      );
      send(frame('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
      send(
        frame('content_block_delta', {
          index: 0,
          delta: { type: 'text_delta', text: `Your key is ${HALVES[0]}` },
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      send(
        frame('content_block_delta', {
          index: 0,
          delta: { type: 'text_delta', text: `${HALVES[1]} — keep it safe.` },
        }),
      );
      send(frame('content_block_stop', { index: 0 }));
      send(
        frame('message_delta', {
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: 20 },
        }),
      );
      send(frame('message_stop', {}));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe('a secret split across streamed deltas', () => {
  it('is in no stored or streamed delta, whole or in parts, and the deltas still join to the redacted text', async () => {
    const config = RunConfigSchema.parse({
      provider: { vendor: 'sim-anthropic', keySource: 'request' },
      clock: 'real',
      timeScale: 1,
      budgets: { maxIterations: 1 },
    });
    const events: RunEvent[] = [];
    let first = true;
    const handle = launchRun({
      runId: 'split',
      config,
      apiKey: KEY,
      onEvent: (event) => events.push(event),
      tapFetch: (inner) => async (input, init) => {
        if (!first) return inner(input, init);
        first = false;
        return splitEcho();
      },
    });
    await handle.done;
    // The answer's deltas (the background title call that follows streams its own).
    const answer = events.slice(
      0,
      events.findIndex((e) => e.event === 'llm_call'),
    );
    const deltas = ofType(answer, 'content_delta').filter((e) => e.kind === 'text');
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    for (const delta of deltas) for (const part of HALVES) expect(delta.text).not.toContain(part);
    expect(deltas.map((d) => d.text).join('')).toBe(`Your key is ${REDACTED} — keep it safe.`);
    expect(JSON.stringify(events)).not.toContain(HALVES[0]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  }, 30_000);
});

describe('createSplitSecretHold', () => {
  const delta = (seq: number, text: string, index = 0): EventOf<'content_delta'> => ({
    run_id: 'r',
    seq,
    ts: seq * 10,
    event: 'content_delta',
    iteration: 1,
    attempt: 1,
    index,
    kind: 'text',
    text,
  });
  const end: RunEvent = {
    run_id: 'r',
    seq: 9,
    ts: 90,
    event: 'model_error',
    iteration: 1,
    attempt: 1,
    message: 'cut',
    category: 'network',
    rule: 'x',
    retryable: true,
    partial: true,
  };
  const run = (redactorKeys: string[], input: RunEvent[]) => {
    const hold = createSplitSecretHold(() => createRedactor({ secrets: redactorKeys }));
    return input.flatMap((e) => hold(e));
  };
  const text = (out: RunEvent[]) => ofType(out, 'content_delta').map((d) => d.text);

  it('leaves the joined text unchanged when there is no secret, releasing a held start when the attempt ends', () => {
    const out = run([KEY], [delta(0, 'ask for sk-'), delta(1, 'learn more'), delta(2, 'then sk-can'), end]);
    expect(text(out)).toEqual(['ask for ', 'sk-learn more', 'then ', 'sk-can']);
    expect(text(out).join('')).toBe('ask for sk-learn morethen sk-can');
    expect(out.at(-2)).toMatchObject({ event: 'content_delta', ts: 90, index: 0 });
    expect(out.at(-1)).toBe(end);
  });

  it('catches a secret split three ways, and a hex echo of it', () => {
    const hex = Buffer.from(KEY).toString('hex');
    const out = run(
      [KEY],
      [
        delta(0, `a ${KEY.slice(0, 5)}`),
        delta(1, KEY.slice(5, 30)),
        delta(2, `${KEY.slice(30)} b ${hex.slice(0, 30)}`),
        delta(3, `${hex.slice(30)} c`),
        end,
      ],
    );
    expect(text(out).join('')).toBe(`a ${REDACTED} b ${REDACTED} c`);
    for (const t of text(out)) expect(t.length === 0 || !KEY.startsWith(t.trim().slice(-5))).toBe(true);
  });

  it('catches a key split by separators across deltas, and one streamed backwards', () => {
    const backwards = [...KEY].reverse().join('');
    const out = run(
      [KEY],
      [
        delta(0, `a ${KEY.slice(0, 7)} | `),
        delta(1, `${KEY.slice(7, 20)} |`),
        delta(2, ` ${KEY.slice(20)} b ${backwards.slice(0, 12)}`),
        delta(3, `${backwards.slice(12)} c`),
        end,
      ],
    );
    expect(text(out).join('')).toBe(`a ${REDACTED} b ${REDACTED} c`);
    for (const t of text(out))
      for (const piece of [KEY.slice(7, 20), backwards.slice(0, 12)]) expect(t).not.toContain(piece);
  });

  it('hands every event on untouched when there are no secrets', () => {
    const input = [delta(0, 'sk-'), delta(1, 'x'), end];
    expect(run([], input)).toEqual(input);
  });
});
