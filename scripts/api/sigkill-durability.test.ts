import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRandom } from '@/lib/clock';
import { serve as serveApi } from './restart-figure';
import { canonical, follow, storedLog, type Received } from './run-stream.testkit';

/**
 * Nothing a client saw is lost in a crash. A real server process (the API's route handlers and
 * store, scripts/api/serve-api.ts) runs live runs with an SSE client on each; it is SIGKILLed at
 * a random moment, started again on the same data folder, and every client reconnects with the
 * Last-Event-ID it had. Every event any client received must be in the store as received, the
 * stored seqs must be unique and dense, and every reconnect must end with the run's terminate.
 */

interface Server {
  child: ChildProcess;
  base: string;
}

const servers: ChildProcess[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-sigkill-'));

afterAll(() => {
  for (const child of servers)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The API server on this test's data folder (restart-figure.ts starts it the same way), remembered for cleanup. */
async function serve(): Promise<Server> {
  const server = await serveApi(dir);
  servers.push(server.child);
  return server;
}

async function startRun(base: string, seed: number): Promise<string> {
  const response = await fetch(`${base}/runs`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      config: {
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
      },
    }),
  });
  if (response.status !== 201) throw new Error(`run refused: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

describe('a server SIGKILLed at a random moment (a real process, clients attached)', () => {
  it('keeps every event a client saw, never reuses a seq, and ends every reconnect with terminate', async () => {
    const random = createRandom(20_261_203);
    let checked = 0;
    for (const round of [1, 2]) {
      const first = await serve();
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(await startRun(first.base, round * 100 + i));
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
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
      await Promise.all(reading);

      const second = await serve();
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
      second.child.kill('SIGKILL');
      await new Promise((resolve) => second.child.once('exit', resolve));
    }
    // The clients saw events before the kills: the check above compared something.
    expect(checked).toBeGreaterThan(20);
  }, 240_000);
});
