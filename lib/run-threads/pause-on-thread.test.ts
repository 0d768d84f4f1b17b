import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunConfigSchema, type EventOf, type RunEvent } from '@/lib/protocol';
import { workerBundle } from '@/lib/sweeps/worker-bundle';
import { createRunThreads, RUN_THREAD_BUNDLE, type RunThreads } from './run-threads';

let threads: RunThreads;
beforeAll(async () => {
  await workerBundle(RUN_THREAD_BUNDLE);
  threads = createRunThreads({ threads: 1 });
}, 120_000);
afterAll(() => threads.close());

describe('a paused run on a run thread', () => {
  it('takes step, continue and an approval through the thread, and holds the run clock meanwhile', async () => {
    const config = RunConfigSchema.parse({
      provider: { vendor: 'sim-anthropic' },
      clock: 'real',
      timeScale: 0.01,
      seed: 4,
      budgets: { maxIterations: 4 },
      faults: {
        rules: [
          {
            id: 'o',
            enabled: true,
            when: { kind: 'requests', numbers: [1] },
            action: { type: 'http_error', status: 529 },
          },
        ],
        tools: [],
      },
      pause: {
        breakpoints: [{ on: 'event', event: 'retry_scheduled' }],
        approval: { tools: ['list_files'] },
      },
    });
    const events: RunEvent[] = [];
    const actions: Array<'step' | 'continue'> = ['step', 'continue'];
    const handle = threads.launch({
      runId: 'paused-on-thread',
      config,
      onEvent: (event) => {
        events.push(event);
        if (event.event !== 'paused') return;
        // 200 ms of wall time paused: 20 s of run time at this scale, were the clock running.
        setTimeout(
          () =>
            handle.control(
              event.call
                ? { action: 'approve', callId: event.call.id, by: 'api' }
                : { action: actions.shift() ?? 'continue', by: 'api' },
            ),
          200,
        );
      },
    });
    await handle.done;
    const of = <T extends RunEvent['event']>(type: T) =>
      events.filter((e): e is EventOf<T> => e.event === type);
    expect(of('paused').map((e) => e.trigger)).toEqual(['breakpoint', 'step', 'approval']);
    expect(of('resumed').map((e) => e.action)).toEqual(['step', 'continue']);
    expect(of('tool_approval')[0]).toMatchObject({ decision: 'approved', tool: 'list_files' });
    // Run time stood still while paused, though each pause held 200 ms of wall time.
    const [first, second] = of('paused');
    const [step, go] = of('resumed');
    expect(step!.ts).toBe(first!.ts);
    expect(go!.ts).toBe(second!.ts);
    expect(events.at(-1)).toMatchObject({ event: 'terminate' });
  }, 60_000);
});
