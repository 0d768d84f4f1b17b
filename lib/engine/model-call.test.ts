import { describe, expect, it } from 'vitest';
import { createRandom, VirtualClock } from '@/lib/clock';
import { resolveRecovery, type PresetId, type RecoveryOverrides, type RunEvent } from '@/lib/protocol';
import {
  apiError,
  createScriptedProvider,
  textResponse,
  type Script,
} from '@/lib/providers/scripted-provider';
import { RunBinding } from './binding';
import { EventLog } from './event-log';
import { callModel, ModelCallFailed, type CallResult } from './model-call';
import { countTokens } from '@/lib/tokens/count-tokens';

/** callModel alone over the scripted provider on the virtual clock: no SDK, no vendor. */
async function call(options: { script: Script; preset?: PresetId; recovery?: RecoveryOverrides }) {
  const clock = new VirtualClock();
  const events: RunEvent[] = [];
  const log = new EventLog('r', clock, (e) => events.push(e));
  const provider = createScriptedProvider({ script: options.script, clock });
  const run = callModel({
    binding: new RunBinding({ provider, model: 'claude-sim-sonnet', fallbackModel: 'claude-sim-haiku' }),
    request: {
      system: 's',
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'go' }] }],
      tools: [],
      maxTokens: 1000,
      thinking: false,
    },
    recovery: resolveRecovery(options.preset ?? 'codesmith', options.recovery),
    state: { consecutiveOverloads: 0, requestNo: 0, maxAttempts: 200 },
    clock,
    random: createRandom(1),
    emit: log.emit,
    signal: new AbortController().signal,
    iteration: 1,
  });
  const outcome: { value?: CallResult; error?: unknown } = await run.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  return { ...outcome, events, clock, requests: provider.requests };
}

const of = <T extends RunEvent['event']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { event: T }> => e.event === type);
const overloaded = {
  parts: [],
  end: {
    kind: 'error' as const,
    error: apiError({ status: 529, type: 'overloaded_error', message: 'Overloaded' }),
  },
};
const stall = { parts: [], end: { kind: 'stall' as const } };

describe('callModel over a scripted provider (virtual clock)', () => {
  it('retries an overload with backoff on the run clock and returns the answer', async () => {
    const { value, events, clock } = await call({
      script: [overloaded, overloaded, textResponse({ text: 'hello' })],
    });
    expect(value).toMatchObject({ attempt: 3, stopReason: 'end_turn', partial: false });
    const waits = of(events, 'retry_scheduled').map((r) => r.wait_ms);
    expect(waits[0]).toBeGreaterThanOrEqual(900);
    expect(waits[1]).toBeGreaterThanOrEqual(1_800);
    expect(clock.now()).toBeGreaterThanOrEqual(waits[0]! + waits[1]!);
  });

  it('Empty: a silent stream trips the watchdog at 120 s, is retried at once with a 150 s window', async () => {
    const { value, events } = await call({ script: [stall, textResponse({ text: 'ok' })] });
    expect(value?.attempt).toBe(2);
    const [fired] = of(events, 'watchdog_fired');
    expect(fired).toMatchObject({ window_ms: 120_000, outcome: 'empty', ts: 120_000 });
    expect(of(events, 'retry_scheduled')[0]).toMatchObject({ wait_ms: 0, category: 'timeout' });
    expect(of(events, 'watchdog_armed').map((w) => w.window_ms)).toEqual([120_000, 150_000]);
  });

  it('Partial: content then silence is kept and not retried', async () => {
    const partial = {
      parts: [
        { type: 'response-start' as const, id: 'm', model: 'scripted' },
        { type: 'text-delta' as const, index: 0, text: 'half' },
      ],
      end: { kind: 'stall' as const },
    };
    const { value, requests } = await call({ script: [partial] });
    expect(value).toMatchObject({ partial: true, stopReason: 'incomplete' });
    expect(value?.message.parts).toEqual([{ type: 'text', text: 'half' }]);
    expect(requests).toHaveLength(1);
    // No usage arrived before the cut: what did arrive is counted, and the usage says so.
    expect(value?.usage).toMatchObject({ outputTokens: countTokens('half'), outputCounted: true });
  });

  it('Partial: a tool call cut mid-arguments is dropped from the answer but its streamed tokens are counted', async () => {
    const partial = {
      parts: [
        { type: 'response-start' as const, id: 'm', model: 'scripted' },
        { type: 'text-delta' as const, index: 0, text: 'Reading the file now.' },
        { type: 'block-stop' as const, index: 0 },
        { type: 'tool-call-start' as const, index: 1, id: 'c1', name: 'read_file' },
        { type: 'tool-call-delta' as const, index: 1, argsText: '{"path": "src/sl' },
      ],
      end: { kind: 'stall' as const },
    };
    const { value } = await call({ script: [partial] });
    expect(value?.message.parts).toEqual([{ type: 'text', text: 'Reading the file now.' }]);
    expect(value?.usage.outputTokens).toBe(
      countTokens('Reading the file now.') + countTokens('read_file') + countTokens('{"path": "src/sl'),
    );
  });

  it('Partial: an output count the vendor did send before the cut stands', async () => {
    const partial = {
      parts: [
        { type: 'response-start' as const, id: 'm', model: 'scripted' },
        { type: 'text-delta' as const, index: 0, text: 'half' },
        { type: 'usage' as const, outputTokens: 9 },
      ],
      end: { kind: 'stall' as const },
    };
    const { value } = await call({ script: [partial] });
    expect(value?.usage.outputTokens).toBe(9);
    expect(value?.usage.outputCounted).toBeUndefined();
  });

  it('five consecutive in-stream errors fail the call whatever the budget (stream error cap)', async () => {
    const broken = {
      parts: [{ type: 'connected' as const }],
      end: { kind: 'error' as const, error: apiError({ status: 500, type: 'api_error', message: 'boom' }) },
    };
    const { error, requests } = await call({ script: () => broken, recovery: { retry: { maxRetries: 20 } } });
    expect(error).toBeInstanceOf(ModelCallFailed);
    expect((error as ModelCallFailed).message).toMatch(/5 consecutive stream errors; 5 attempts/);
    expect(requests).toHaveLength(5);
  });

  it('s11 does not retry a 500 (only 429 and 529): the call surfaces after one attempt', async () => {
    const failed = {
      parts: [],
      end: {
        kind: 'error' as const,
        error: apiError({ status: 500, type: 'api_error', message: 'Internal' }),
      },
    };
    const { error, events } = await call({ preset: 's11', script: [failed] });
    expect((error as ModelCallFailed).message).toMatch(
      /internal is not retried by this configuration \(only rate limits and overloads are\); 1 attempt/,
    );
    expect(of(events, 'retry_scheduled')).toEqual([]);
    expect(of(events, 'retry_declined')).toEqual([
      expect.objectContaining({ attempt: 1, rule: 'category_not_retried', next: 'surface' }),
    ]);
  });

  it('s11 waits its own backoff even when the server sends Retry-After', async () => {
    const limited = {
      parts: [],
      end: {
        kind: 'error' as const,
        error: apiError({
          status: 429,
          type: 'rate_limit_error',
          message: 'slow down',
          headers: { 'retry-after': '30' },
        }),
      },
    };
    const { events } = await call({ preset: 's11', script: [limited, textResponse({ text: 'ok' })] });
    const [retry] = of(events, 'retry_scheduled');
    expect(retry).toMatchObject({ retry_after_ms: 30_000 });
    expect(retry!.wait_ms).toBeLessThanOrEqual(625);
    expect(retry!.reason).toMatch(/Retry-After 30 s ignored/);
  });
});
