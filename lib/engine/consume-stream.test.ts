import { describe, expect, it } from 'vitest';
import { VirtualClock } from '@/lib/clock';
import type { RunEvent } from '@/lib/protocol';
import {
  createScriptedProvider,
  textResponse,
  type ScriptedResponse,
} from '@/lib/providers/scripted-provider';
import { consumeStream, DELTA_WINDOW_MS, IncompleteStreamError } from './consume-stream';
import { EventLog } from './event-log';
import { StreamIdleTimeout } from './idle-watchdog';

async function consume(response: ScriptedResponse, watchdogMs?: number) {
  const clock = new VirtualClock();
  const events: RunEvent[] = [];
  const log = new EventLog('r', clock, (e) => events.push(e));
  const provider = createScriptedProvider({ script: [response], clock });
  const request = { model: 'm', system: '', messages: [], tools: [], maxTokens: 100, thinking: false };
  const outcome = await consumeStream({
    provider,
    request,
    clock,
    emit: log.emit,
    signal: new AbortController().signal,
    iteration: 1,
    attempt: 1,
    watchdogMs,
  });
  return { outcome, events, clock };
}

describe('consumeStream over a scripted provider', () => {
  it('coalesces deltas of a block into one event per window, losing no text', async () => {
    const { outcome, events } = await consume(textResponse({ text: 'abcdefghij', chunks: 10, gapMs: 10 }));
    expect(outcome.kind).toBe('complete');
    const deltas = events.filter((e) => e.event === 'content_delta');
    expect(deltas.map((d) => (d.event === 'content_delta' ? d.text : '')).join('')).toBe('abcdefghij');
    expect(deltas.length).toBeLessThanOrEqual(Math.ceil((10 * 10) / DELTA_WINDOW_MS) + 1);
    expect(deltas.length).toBeGreaterThan(1);
  });

  it("a stream that ends without the vendor's finish is a failure, with what arrived kept", async () => {
    const cut = textResponse({ text: 'partial' });
    const { outcome } = await consume({ parts: cut.parts.filter((p) => p.type !== 'finish') });
    expect(outcome.kind).toBe('failed');
    if (outcome.kind === 'failed') {
      expect(outcome.error).toBeInstanceOf(IncompleteStreamError);
      expect(outcome.assembler.message().parts).toEqual([{ type: 'text', text: 'partial' }]);
    }
  });

  it('the idle watchdog fires only after a silent window, measured from the last part', async () => {
    const slow: ScriptedResponse = {
      ...textResponse({ text: 'abc', chunks: 3, gapMs: 900 }),
      end: { kind: 'stall' },
    };
    const { outcome, clock } = await consume(slow, 1_000);
    expect(outcome.kind).toBe('failed');
    if (outcome.kind === 'failed') {
      expect(outcome.watchdogFired).toBe(true);
      expect(outcome.error).toBeInstanceOf(StreamIdleTimeout);
    }
    // Parts every 900 ms kept it alive; it fired 1 s after the last one.
    const lastPartAt = 900 * textResponse({ text: 'abc', chunks: 3 }).parts.length;
    expect(clock.now()).toBe(lastPartAt + 1_000);
  });
});
