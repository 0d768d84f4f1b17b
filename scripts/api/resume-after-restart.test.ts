import { describe, expect, it } from 'vitest';
import { createRandom } from '@/lib/clock';
import { kill, serve, startRun } from './processes.testkit';
import { pacedConfig, uninterruptedForm } from './run-queue.testkit';
import { follow, storedLog } from './run-stream.testkit';
import { dataFolder, expectReconnectsKeepWhatWasSeen, killWhileFollowed } from './server-restart.testkit';

/**
 * Runs survive a restart. A real server process (scripts/api/serve-api.ts) runs ten runs on the
 * paced clock (the virtual clock's run time, waited out in wall time, so they are in flight for
 * seconds) and one on the real clock, with an SSE client on each; it is SIGKILLed at a random
 * moment and started again on the same data folder. Whenever the kill came, every paced run must
 * end as the uninterrupted run of its seed does (its log, without the `resumed_after_restart`
 * marker, equal to a run of the same config started afresh), and the real-clock run, which
 * cannot be resumed faithfully, must end with a terminate that says why. Every event a client saw
 * stays as it saw it, and seqs stay unique and dense.
 */

const dir = dataFolder('resume');

/** A real-clock run that stays in flight: its stream stalls and no watchdog is armed. */
const REAL_CLOCK = {
  provider: { vendor: 'sim-anthropic' },
  preset: 'naive',
  seed: 1,
  faults: {
    rules: [{ id: 'stall', when: { kind: 'always' }, action: { type: 'stall', afterEvents: 2 } }],
    tools: [],
  },
};

interface Event {
  seq: number;
  event: string;
  run_id?: string;
  replayed?: number;
  at_turn?: number;
  iteration?: number;
  reason?: string;
  message?: string;
}

describe('a server SIGKILLed during ten paced runs, started again', () => {
  it('resumes each run in flight and it ends as the uninterrupted run of its seed, or ends saying why', async () => {
    const random = createRandom(20_261_204);
    const first = await serve(dir);
    const seeds = Array.from({ length: 10 }, (_, i) => 300 + i);
    const ids = await Promise.all(
      [...seeds.map((seed) => pacedConfig(seed)), REAL_CLOCK].map((config) => startRun(first.base, config)),
    );
    const paced = ids.slice(0, seeds.length);
    const real = ids.at(-1)!;
    // A random moment while the runs are in flight (any moment will do: the assertions hold for each).
    const seen = await killWhileFollowed(first, ids, random, 2_000);

    const second = await serve(dir);
    const logs = await expectReconnectsKeepWhatWasSeen(second.base, seen);

    // Each paced run against a run of the same config started afresh on the restarted server.
    const fresh = await Promise.all(seeds.map((seed) => startRun(second.base, pacedConfig(seed))));
    await Promise.all(fresh.map((id) => follow(second.base, id, [])));
    let resumed = 0;
    for (const [i, id] of paced.entries()) {
      const log = logs.get(id)!;
      const events = log.map((e) => JSON.parse(e.json) as Event);
      const markers = events.filter((e) => e.event === 'resumed_after_restart');
      expect(markers.length, `run ${id}: at most one resume`).toBeLessThanOrEqual(1);
      const marker = markers[0];
      if (marker) {
        resumed += 1;
        // Right after the stored log it re-executed, and after every event a client saw before the kill.
        expect(marker.seq).toBe(Math.max(marker.replayed!, 1));
        expect(seen.get(id)!.every((e) => e.seq < marker.seq)).toBe(true);
        // The turn it goes on in: the last the stored log had started.
        const last = events.filter((e) => e.seq < marker.seq && e.event === 'iteration_start').at(-1);
        expect(marker.at_turn).toBe(last?.iteration ?? 0);
      }
      expect(events.at(-1)?.reason, `run ${id}: ends as the run does, not cut off`).not.toBe(
        'server_restart',
      );
      expect(
        uninterruptedForm(log),
        `run ${id}: the log of an uninterrupted run of seed ${seeds[i]}`,
      ).toEqual(uninterruptedForm(await storedLog(second.base, fresh[i]!)));
    }
    // The runs take seconds of wall time at any host speed (run time × 0.2, 8 s), and the kill comes
    // within two seconds of their first events: some were in flight, and were resumed.
    expect(resumed).toBeGreaterThan(0);

    // The real-clock run cannot be re-executed: it ends after its stored log, saying why.
    const end = JSON.parse(logs.get(real)!.at(-1)!.json) as Event;
    expect(end).toMatchObject({ event: 'terminate', reason: 'server_restart' });
    expect(end.message).toMatch(/not resumed: it ran on the real clock/);
    await kill(second.child);
  }, 240_000);
});
