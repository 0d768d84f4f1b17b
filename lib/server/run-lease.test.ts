import { describe, expect, it } from 'vitest';
import { VirtualClock } from '@/lib/clock/virtual-clock';
import type { RunStore } from '@/lib/store';
import { leaseGate } from './run-lease';

/** A store whose lease read takes real time, as a Postgres round trip does. */
function slowStore(ms: number): RunStore {
  return {
    holdsLease: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), ms)),
  } as Partial<RunStore> as RunStore;
}

describe('the lease gate before a worker run’s vendor request', () => {
  it('holds the run’s clock while it asks the store, so a slow read lets no run time pass', async () => {
    const clock = new VirtualClock();
    let watchdogFired = false;
    // The stream idle watchdog's deadline, armed before the request as the engine arms it.
    clock.setTimer(120_000, () => (watchdogFired = true));
    const gate = leaseGate({
      store: slowStore(50),
      runId: 'r',
      lease: 1,
      isLost: () => false,
      lost: () => {},
    });
    let sentAt = -1;
    const fetch = gate(async () => {
      sentAt = clock.now();
      return new Response('ok');
    }, clock);
    await fetch('http://vendor.invalid/v1/messages');
    // Without the hold the clock, seeing nothing pending, jumped to the deadline during the read.
    expect(watchdogFired).toBe(false);
    expect(sentAt).toBe(0);
  });
});
