import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRandom } from '@/lib/clock';
import { kill, killAll, serve, startRun } from './processes.testkit';
import { canonical, follow, storedLog, type Received } from './run-stream.testkit';

/**
 * Nothing a client saw is lost in a crash. A real server process (the API's route handlers and
 * store, scripts/api/serve-api.ts) runs live runs with an SSE client on each; it is SIGKILLed at
 * a random moment, started again on the same data folder, and every client reconnects with the
 * Last-Event-ID it had. Every event any client received must be in the store as received, the
 * stored seqs must be unique and dense, and every reconnect must end with the run's terminate.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-sigkill-'));

afterAll(() => {
  killAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A real-clock run that waits out two rate limits, so it is in flight for seconds. */
function config(seed: number): Record<string, unknown> {
  return {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed,
    clock: 'real',
    timeScale: 0.5,
    faults: {
      rules: [
        {
          id: 'limited',
          when: { kind: 'requests', numbers: [1, 3] },
          action: { type: 'http_error', status: 429, retryAfterSec: 2 },
        },
      ],
      tools: [],
    },
  };
}

describe('a server SIGKILLed at a random moment (a real process, clients attached)', () => {
  it('keeps every event a client saw, never reuses a seq, and ends every reconnect with terminate', async () => {
    const random = createRandom(20_261_203);
    let checked = 0;
    for (const round of [1, 2]) {
      const first = await serve(dir);
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(await startRun(first.base, config(round * 100 + i)));
      const seen = new Map<string, Received[]>(ids.map((id) => [id, []]));
      const reading = ids.map((id) => follow(first.base, id, seen.get(id)!));
      // A random moment while the runs are in flight (they wait out rate limits on the real clock):
      // once the clients have begun to receive events, after a random further wait.
      const started = Date.now();
      while (
        [...seen.values()].reduce((n, events) => n + events.length, 0) < 10 &&
        Date.now() - started < 60_000
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random.next() * 1_500)));
      await kill(first.child);
      await Promise.all(reading);

      const second = await serve(dir);
      for (const id of ids) {
        const before = seen.get(id)!;
        const after: Received[] = [];
        await follow(second.base, id, after, before.at(-1)?.seq);
        expect(after.at(-1)?.event, `run ${id}: the reconnect ends with terminate`).toBe('terminate');

        const stored = await storedLog(second.base, id);
        expect(
          stored.map((e) => e.seq),
          `run ${id}: stored seqs are unique and dense`,
        ).toEqual(stored.map((_, i) => i));
        const bySeq = new Map(stored.map((e) => [e.seq, canonical(e.json)]));
        for (const event of [...before, ...after]) {
          expect(
            bySeq.get(event.seq),
            `run ${id}: seq ${event.seq} (${event.event}) as the client received it`,
          ).toBe(canonical(event.json));
        }
        checked += before.length;
      }
      await kill(second.child);
    }
    // The clients saw events before the kills: the check above compared something.
    expect(checked).toBeGreaterThan(20);
  }, 240_000);
});
