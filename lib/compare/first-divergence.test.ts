import { describe, expect, it } from 'vitest';
import type { RunConfigInput, RunEvent } from '@/lib/protocol';
import { runToEnd } from '@/lib/testing/run-to-end';
import { firstDivergence } from './first-divergence';

const overloadAtRequest3: Partial<RunConfigInput> = {
  seed: 7,
  faults: {
    rules: [
      {
        id: 'f',
        enabled: true,
        when: { kind: 'requests', numbers: [3] },
        action: { type: 'http_error', status: 529 },
      },
    ],
    tools: [],
  },
};

function at(events: readonly RunEvent[], seq: number): RunEvent {
  const event = events.find((e) => e.seq === seq);
  if (!event) throw new Error(`no event ${seq}`);
  return event;
}

describe('firstDivergence (virtual clock, real runs)', () => {
  it('two runs of the same config and seed do not diverge', async () => {
    const a = await runToEnd(overloadAtRequest3);
    const b = await runToEnd(overloadAtRequest3);
    expect(firstDivergence(a, b)).toBeNull();
  });

  it('retry on vs off: diverges at turn 3, where A schedules a retry and B gives up', async () => {
    const a = await runToEnd(overloadAtRequest3);
    const b = await runToEnd({ ...overloadAtRequest3, recovery: { retry: { enabled: false } } });
    const d = firstDivergence(a, b)!;
    expect(d).not.toBeNull();
    expect(d.turn).toBe(3);
    // A's divergent event is the retry after the injected 529 on turn 3.
    expect(at(a, d.a!.seq)).toMatchObject({ event: 'retry_scheduled', iteration: 3, category: 'overloaded' });
    // B took no retry: its next step is the decision not to, which says the error surfaces.
    expect(at(b, d.b!.seq)).toMatchObject({
      event: 'retry_declined',
      iteration: 3,
      rule: 'retry_off',
      next: 'surface',
    });
    expect(d.description).toMatch(/^A retry 1 of \d .*overloaded.* · B no retry \(retry off\): surface$/);
    // Up to that point both logs did the same things (the fault and the error on turn 3 included).
    const errorA = a.find((e) => e.event === 'model_error')!;
    const errorB = b.find((e) => e.event === 'model_error')!;
    expect(errorA.seq).toBeLessThan(d.a!.seq);
    expect(errorB.seq).toBeLessThan(d.b!.seq);
  });

  it('a different system prompt diverges at the first request of turn 1', async () => {
    const a = await runToEnd({ seed: 3 });
    const b = await runToEnd({ seed: 3, system: 'You are terse. Fix the failing test.' });
    const d = firstDivergence(a, b)!;
    expect(d.turn).toBe(1);
    expect(at(a, d.a!.seq)).toMatchObject({ event: 'model_request', iteration: 1, attempt: 1 });
    expect(at(b, d.b!.seq)).toMatchObject({ event: 'model_request', iteration: 1, attempt: 1 });
    expect(d.description).toMatch(/^the request differs — A request to .*~\d+ tokens in\) · B request to/);
  });

  it('a run still going that has done the same so far has not diverged yet', async () => {
    const a = await runToEnd(overloadAtRequest3);
    const live = a.slice(0, Math.floor(a.length / 2));
    expect(firstDivergence(a, live)).toBeNull();
    expect(firstDivergence(live, a)).toBeNull();
  });
});
