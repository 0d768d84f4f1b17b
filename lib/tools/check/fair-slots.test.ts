import { describe, expect, it } from 'vitest';
import { FairSlots } from './fair-slots';

describe('FairSlots', () => {
  it('serves waiting runs round-robin, fewest slots held first', async () => {
    const slots = new FairSlots(1);
    const order: string[] = [];
    const releases: Array<() => void> = [(await slots.acquire('A'))!];
    const asked = ['A', 'A', 'A', 'B', 'C', 'C'].map((run) =>
      slots.acquire(run).then((release) => {
        order.push(run);
        releases.push(release!);
      }),
    );
    // Each check ends in turn; its slot goes to the next run in the round.
    for (let i = 0; i < asked.length + 1; i++) {
      releases[i]!();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await Promise.all(asked);
    expect(order).toEqual(['A', 'B', 'C', 'A', 'C', 'A']);
  });

  it('takes a check whose run is aborted out of the queue, and a free slot goes on to the next', async () => {
    const slots = new FairSlots(1);
    const held = (await slots.acquire('A'))!;
    const controller = new AbortController();
    const aborted = slots.acquire('B', controller.signal);
    const next = slots.acquire('C');
    controller.abort();
    expect(await aborted).toBeUndefined();
    expect(slots.state()).toEqual({ active: 1, waiting: 1 });
    held();
    const release = await next;
    expect(release).toBeTypeOf('function');
    release!();
    expect(slots.state()).toEqual({ active: 0, waiting: 0 });
  });
});
