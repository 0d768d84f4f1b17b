import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunConfigSchema } from '@/lib/protocol';
import { REDACTED } from '@/lib/runtime/redact-secrets';
import { launchRun } from '@/lib/runtime/launch-run';
import { createSqliteRunStore, createSqliteWireStore, type WireStore } from '@/lib/store';
import { createRunRegistry } from './run-registry';
import { createRunTraffic } from './run-traffic';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-traffic-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const KEY = 'sk-test-traffic-kept-7d2a9c41e0b5';

/** The wire store with each traffic write answered a macrotask late, as a busy shared store may. */
function lateTraffic(store: WireStore): WireStore {
  return {
    ...store,
    keepTraffic: async (options) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.keepTraffic(options);
    },
  };
}

/**
 * A run's model traffic is kept in the store as it crosses, so any process can save the run as a
 * cassette: all of it by the time the run's terminate is stored, and none of the run's key.
 */
describe("a run's traffic", () => {
  it('is all in the store once the terminate is, with no form of the run key, in request order', async () => {
    const store = createSqliteRunStore({ dir });
    const wire = createSqliteWireStore({ dir });
    const registry = createRunRegistry({
      store,
      launch: launchRun,
      wire,
      traffic: createRunTraffic({ store: lateTraffic(wire) }),
    });
    // The key pasted into the task text: it goes out in every request body unless the recorder redacts it.
    const config = RunConfigSchema.parse({
      provider: { vendor: 'sim-openai' },
      clock: 'virtual',
      seed: 5,
      task: `Explain what this project does. My key is ${KEY}, keep it safe.`,
    });
    const { id } = await registry.startRun({ config, apiKey: KEY });
    await registry.whenFinished(id);
    const requests = (await store.readEvents({ runId: id })).flatMap((e) =>
      e.event === 'model_request' ? [e.request_no] : [],
    );
    expect(requests.length).toBeGreaterThan(1);
    // Read at once: the terminate was stored after the last exchange.
    const kept = await wire.readTraffic(id);
    expect(kept.truncated).toBe(false);
    expect(kept.exchanges.map((e) => e.n)).toEqual(requests);
    expect(kept.exchanges[0]!.request.body).toContain(REDACTED);
    await store.close();
    await wire.close();
    for (const form of [KEY, Buffer.from(KEY).toString('base64'), KEY.slice(3, 24)])
      expect(JSON.stringify(kept)).not.toContain(form);
    for (const file of fs.readdirSync(dir))
      expect(fs.readFileSync(path.join(dir, file)).includes(KEY.slice(3, 24)), file).toBe(false);
  });
});
