import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunConfigSchema, type WireExchange } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { createSqliteRunStore, createSqliteWireStore } from '@/lib/store';
import { sampleConfig } from '@/lib/store/sample-run.testkit';
import { createRunRegistry } from './run-registry';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-wire-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * A served run's wire is kept in the store beside its log, so its attempt cards show it after a
 * restart; within a bound per run, past which a request is kept by number with the reason.
 */
describe("a served run's wire", () => {
  it('is kept for every request and read back by a store opened after a restart', async () => {
    const store = createSqliteRunStore({ dir });
    const wire = createSqliteWireStore({ dir });
    const registry = createRunRegistry({ store, launch: launchRun, wire });
    const config = RunConfigSchema.parse({ provider: { vendor: 'sim-openai' }, clock: 'virtual', seed: 2 });
    const { id } = await registry.startRun({ config, apiKey: 'sk-test-kept-wire-3c9e1f0a7b' });
    await registry.whenFinished(id);
    const requests = (await store.readEvents({ runId: id })).flatMap((e) =>
      e.event === 'model_request' ? [e.request_no] : [],
    );
    await store.close();
    await wire.close();

    const reopened = createSqliteWireStore({ dir });
    try {
      const kept = await reopened.readWire(id);
      expect(kept.map((r) => r.n)).toEqual(requests);
      expect(kept.every((r) => r.exchange?.response?.status === 200)).toBe(true);
      expect(JSON.stringify(kept)).not.toContain('sk-test-kept-wire');
      expect(await reopened.readWire(id, 2)).toEqual([kept[1]]);
      expect(await reopened.readWire(id, 999)).toEqual([]);
    } finally {
      await reopened.close();
    }
  });

  it('keeps requests within its bound; past it, each by number with the reason', async () => {
    const runs = createSqliteRunStore({ dir });
    await runs.createRun({ id: 'r', config: sampleConfig() });
    await runs.close();
    const wire = createSqliteWireStore({ dir });
    try {
      const exchange = (n: number): WireExchange => ({
        n,
        vendor: 'sim-openai',
        dialect: 'openai',
        at_ms: n * 100,
        request: {
          method: 'POST',
          url: 'http://sim.openai.local/v1/chat/completions',
          headers: {},
          body: 'x'.repeat(400),
        },
      });
      const size = Buffer.byteLength(JSON.stringify(exchange(1)));
      for (const n of [1, 2, 3])
        await wire.keepWire({ runId: 'r', exchange: exchange(n), maxBytes: size * 2 });
      const kept = await wire.readWire('r');
      expect(kept.map((r) => r.n)).toEqual([1, 2, 3]);
      expect(kept.slice(0, 2).map((r) => r.exchange)).toEqual([exchange(1), exchange(2)]);
      expect(kept[2]).toMatchObject({ n: 3 });
      expect(kept[2]!.exchange).toBeUndefined();
      expect(kept[2]!.omitted).toMatch(/this run's wire reached its bound of .* before request 3/);
    } finally {
      await wire.close();
    }
  });
});
