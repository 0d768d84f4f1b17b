import { describe, expect, it, vi } from 'vitest';
import { RunAborted } from '@/lib/engine';
import type { EventBody, FaultPlan, RunEvent } from '@/lib/protocol';
import type { BoundVendor } from './bind-vendor';
import { createControlQueue } from './control-queue';

const NO_FAULTS: FaultPlan = { rules: [], tools: [] };
const STALL: FaultPlan = {
  rules: [
    {
      id: 's',
      label: 'stall in text',
      enabled: true,
      when: { kind: 'requests', numbers: [2] },
      action: { type: 'stall', during: 'text' },
    },
  ],
  tools: [],
};

function queue(closed = false) {
  const events: EventBody[] = [];
  const learned: string[] = [];
  const requested: unknown[] = [];
  const binding = { model: 'swapped' } as BoundVendor;
  const applySwaps = vi.fn((n: number) => (requested.length > 0 && n === 2 ? binding : undefined));
  const controls = createControlQueue({
    faults: NO_FAULTS,
    emit: (body) => {
      events.push(body);
      return body as RunEvent;
    },
    iteration: () => 7,
    closed: () => closed,
    learnSecret: (key) => learned.push(key),
    requestSwap: (target) => requested.push(target),
    applySwaps,
  });
  return { controls, events, learned, requested, binding, applySwaps };
}

describe('the control queue', () => {
  it('aborts at once: an event naming who stopped the run, then the signal', () => {
    const { controls, events } = queue();
    controls.push({ action: 'abort', reason: 'abandoned' });
    expect(events).toEqual([{ event: 'control', iteration: 7, action: 'abort', detail: 'abandoned' }]);
    expect(controls.signal.aborted).toBe(true);
    expect(controls.signal.reason).toBeInstanceOf(RunAborted);
    expect((controls.signal.reason as RunAborted).reason).toBe('abandoned');
  });

  it('holds fault toggles and "Compact now" for the next request boundary, each an event there', () => {
    const { controls, events } = queue();
    controls.push({ action: 'set_faults', faults: STALL });
    controls.push({ action: 'compact' });
    expect(controls.faults).toBe(NO_FAULTS);
    expect(events).toEqual([]);
    expect(controls.takeCompactRequest()).toBe(false);
    controls.beforeRequest(3);
    expect(controls.faults).toBe(STALL);
    expect(events.map((e) => e.event === 'control' && [e.iteration, e.action, e.detail])).toEqual([
      [3, 'set_faults', 'stall in text'],
      [3, 'compact', 'compact now: a full compaction before this request, past the breaker'],
    ]);
    expect(controls.takeCompactRequest()).toBe(true);
    expect(controls.takeCompactRequest()).toBe(false);
  });

  it("learns a swap's key as it arrives and hands the swap to the controller at the boundary, returning the new binding", () => {
    const { controls, learned, requested, binding, applySwaps } = queue();
    const target = { vendor: 'openai', model: 'gpt-4.1', apiKey: 'sk-swap-0123456789abcdef' } as const;
    controls.push({ action: 'swap', target });
    expect(learned).toEqual([target.apiKey]);
    expect(requested).toEqual([]);
    expect(controls.beforeRequest(2)).toBe(binding);
    expect(requested).toEqual([target]);
    expect(applySwaps).toHaveBeenCalledWith(2);
  });

  it('ignores messages once the log is closed', () => {
    const { controls, events, learned } = queue(true);
    controls.push({ action: 'abort' });
    controls.push({
      action: 'swap',
      target: { vendor: 'openai', model: '', apiKey: 'sk-swap-0123456789abcdef' },
    });
    expect(events).toEqual([]);
    expect(learned).toEqual([]);
    expect(controls.signal.aborted).toBe(false);
  });
});
