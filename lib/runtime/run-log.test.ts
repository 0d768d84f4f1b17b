import { describe, expect, it } from 'vitest';
import { createClock } from '@/lib/clock';
import type { EventOf, RunEvent } from '@/lib/protocol';
import { createRunLog } from './run-log';

const KEY = 'sk-run-Canary-0123456789abcdef';
const SWAP_KEY = 'sk-swap-Canary-fedcba9876543210';

function openLog(apiKey?: string) {
  const events: RunEvent[] = [];
  const log = createRunLog({
    runId: 'r',
    clock: createClock({ kind: 'virtual', timeScale: 1 }),
    apiKey,
    env: {},
    onEvent: (e) => events.push(e),
  });
  return { log, events };
}

const note = (message: string) => ({ event: 'log', iteration: 1, level: 'info', message }) as const;
const llmCall = (input: number, output: number, usdSoFar: number) =>
  ({
    event: 'llm_call',
    iteration: 1,
    attempt: 1,
    vendor: 'sim-anthropic',
    model: 'claude-sonnet-4-5',
    input_tokens: input,
    output_tokens: output,
    usd: usdSoFar,
    usd_so_far: usdSoFar,
    stop_reason: 'tool_use',
    vendor_stop_reason: 'tool_use',
    latency_ms: 10,
  }) as const;

describe('the run log', () => {
  it('redacts the run key from the start and a swap key from the moment it is learned, in events and in text', () => {
    const { log, events } = openLog(KEY);
    log.emit(note(`a ${KEY} and a ${SWAP_KEY}`));
    log.learnSecret(SWAP_KEY);
    log.emit(note(`a ${KEY} and a ${SWAP_KEY}`));
    const [before, after] = events.map((e) => (e as EventOf<'log'>).message);
    expect(before).not.toContain(KEY);
    expect(before).toContain(SWAP_KEY);
    expect(after).toBe('a [redacted] and a [redacted]');
    expect(log.redactText(`x ${SWAP_KEY}`)).toBe('x [redacted]');
  });

  it('numbers seq after the split-secret hold, so a held part that goes out as its own delta keeps the log contiguous', () => {
    const { log, events } = openLog(KEY);
    const delta = (text: string) =>
      ({ event: 'content_delta', iteration: 1, attempt: 1, index: 0, kind: 'text', text }) as const;
    log.emit(delta(`here is ${KEY.slice(0, 10)}`));
    log.emit(llmCall(1, 1, 0.001));
    expect(events.map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(events.map((e) => e.event)).toEqual(['content_delta', 'content_delta', 'llm_call']);
    // The start of the key was held back; alone it is no secret, so it goes out as it was.
    expect(events.slice(0, 2).map((e) => (e as EventOf<'content_delta'>).text)).toEqual([
      'here is ',
      KEY.slice(0, 10),
    ]);
  });

  it('puts a storage_error in the place of an event too deep to encode', () => {
    const { log, events } = openLog();
    let args: unknown = 'leaf';
    for (let i = 0; i < 5_000; i++) args = { a: args };
    log.emit({
      event: 'tool_start',
      iteration: 2,
      call_id: 'c',
      tool: 'edit_file',
      args: args as Record<string, unknown>,
    });
    expect(events[0]).toMatchObject({ seq: 0, event: 'storage_error', iteration: 2, replaces: 'tool_start' });
  });

  it('closes a log the loop left open with one terminate carrying the folded totals and the turn, and nothing after it', () => {
    const { log, events } = openLog();
    log.emit({ event: 'iteration_start', iteration: 3 });
    log.emit(llmCall(100, 20, 0.01));
    log.emit(llmCall(50, 5, 0.015));
    log.close('internal_error', 'boom');
    log.close('deadlock', 'again');
    log.emit(note('late'));
    expect(log.closed).toBe(true);
    expect(events.map((e) => e.event)).toEqual(['iteration_start', 'llm_call', 'llm_call', 'terminate']);
    expect(events.at(-1)).toMatchObject({
      seq: 3,
      iteration: 3,
      reason: 'internal_error',
      complete: false,
      message: 'boom',
      input_tokens: 150,
      output_tokens: 25,
      usd_so_far: 0.015,
    });
  });

  it('says whether the request going out is a background call, from the last model_request', () => {
    const { log } = openLog();
    const request = (background: boolean) =>
      ({
        event: 'model_request',
        iteration: 1,
        attempt: 1,
        request_no: 1,
        vendor: 'sim-anthropic',
        model: 'm',
        message_count: 1,
        input_tokens_est: 1,
        max_tokens: 1,
        background,
      }) as const;
    log.emit(request(true));
    expect(log.inBackground).toBe(true);
    log.emit(request(false));
    expect(log.inBackground).toBe(false);
  });
});
