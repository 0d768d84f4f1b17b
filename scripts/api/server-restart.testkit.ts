import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import type { Random } from '@/lib/clock';
import { kill, killAll, type Started } from './processes.testkit';
import { canonical, follow, storedLog, type Received } from './run-stream.testkit';

/**
 * What the process tests that SIGKILL a server mid-run share (scripts/api/sigkill-durability.test.ts,
 * scripts/api/resume-after-restart.test.ts): a data folder of the file's own, the kill at a random
 * moment while clients follow the runs, and the checks on each client's reconnect after the restart.
 */

/**
 * A fresh data folder under the system's temporary one, named `loop-lab-<name>-…`. After the file's
 * tests every process the tests started is killed, `alsoAfter` runs, and the folder is removed.
 */
export function dataFolder(name: string, alsoAfter?: () => Promise<void>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `loop-lab-${name}-`));
  afterAll(async () => {
    killAll();
    await alsoAfter?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Follows each run's stream from `server` and SIGKILLs it at a random moment while the runs are in
 * flight: once the clients have begun to receive events (ten between them, or after a minute),
 * after a random further wait of up to `maxWaitMs`. What each client saw before the kill, by run.
 */
export async function killWhileFollowed(
  server: Started,
  ids: readonly string[],
  random: Random,
  maxWaitMs: number,
): Promise<Map<string, Received[]>> {
  const seen = new Map<string, Received[]>(ids.map((id) => [id, []]));
  const reading = ids.map((id) => follow(server.base, id, seen.get(id)!));
  const started = Date.now();
  while ([...seen.values()].reduce((n, events) => n + events.length, 0) < 10 && Date.now() - started < 60_000)
    await pause(20);
  await pause(Math.floor(random.next() * maxWaitMs));
  await kill(server.child);
  await Promise.all(reading);
  return seen;
}

/**
 * Each client reconnects to the restarted server at `base` with the Last-Event-ID it had: the
 * reconnect must end with terminate, the stored seqs must be unique and dense, and every event the
 * client received, before the kill or after, must be in the store as received. Each run's stored log.
 */
export async function expectReconnectsKeepWhatWasSeen(
  base: string,
  seen: ReadonlyMap<string, readonly Received[]>,
): Promise<Map<string, { seq: number; json: string }[]>> {
  const logs = new Map<string, { seq: number; json: string }[]>();
  for (const [id, before] of seen) {
    const after: Received[] = [];
    await follow(base, id, after, before.at(-1)?.seq);
    expect(after.at(-1)?.event, `run ${id}: the reconnect ends with terminate`).toBe('terminate');
    const stored = await storedLog(base, id);
    expect(
      stored.map((e) => e.seq),
      `run ${id}: stored seqs are unique and dense`,
    ).toEqual(stored.map((_, i) => i));
    const bySeq = new Map(stored.map((e) => [e.seq, canonical(e.json)]));
    for (const event of [...before, ...after])
      expect(
        bySeq.get(event.seq),
        `run ${id}: seq ${event.seq} (${event.event}) as the client received it`,
      ).toBe(canonical(event.json));
    logs.set(id, stored);
  }
  return logs;
}
