import fs from 'node:fs';
import { createRedactor } from '@/lib/runtime/redact-secrets';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunConfigSchema, RunEventSchema, type RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { createSqliteRunStore, exportRunJsonl, importJsonl, type RunStore } from '@/lib/store';
import { createRunRegistry, type RunListener } from './run-registry';

/** The registry over the real engine: a simulated vendor on the virtual clock. */

let dir: string;
let store: RunStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-real-'));
  store = createSqliteRunStore({ dir });
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const config = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, clock: 'virtual' });

function collector(): RunListener & { events: RunEvent[] } {
  const c = { events: new Array<RunEvent>(), onEvent: (e: RunEvent) => c.events.push(e), onEnd: () => {} };
  return c;
}

describe('run registry with launchRun', () => {
  it('runs a simulated run to terminate, with every subscriber seeing a contiguous log', async () => {
    const registry = createRunRegistry({ store, launch: launchRun });
    const { id } = await registry.startRun({ config });
    const early = collector();
    await registry.subscribe({ runId: id, listener: early });
    // Join mid-run, resuming as a browser would after a drop at seq 3.
    while (early.events.length < 6 && (await registry.isLive(id))) await new Promise((r) => setTimeout(r, 0));
    const resumed = collector();
    await registry.subscribe({ runId: id, afterSeq: 3, listener: resumed });
    await registry.whenFinished(id);

    const stored = await store.readEvents({ runId: id });
    expect(stored.map((e) => e.seq)).toEqual(stored.map((_, i) => i));
    expect(stored[0]?.event).toBe('run_start');
    expect(stored.at(-1)?.event).toBe('terminate');
    for (const event of stored) expect(RunEventSchema.safeParse(event).success).toBe(true);
    expect(early.events).toEqual(stored);
    expect(resumed.events).toEqual(stored.slice(4));

    const summary = (await store.getRun(id))!.summary;
    expect(summary.event_count).toBe(stored.length);
    expect(summary.status).not.toBe('running');
    expect(summary.vendor).toBe('sim-anthropic');

    // And the JSONL round trip of a real log.
    const again = await importJsonl({
      store,
      text: (await exportRunJsonl({ store, runId: id }))!,
      redactor: createRedactor({ secrets: [] }),
    });
    if (!again.ok) throw new Error(again.errors.join('\n'));
    expect(await store.readEvents({ runId: again.id })).toEqual(
      stored.map((e) => ({ ...e, run_id: again.id })),
    );
  });

  it('aborts a run on request and logs terminate aborted', async () => {
    const registry = createRunRegistry({ store, launch: launchRun });
    const { id } = await registry.startRun({ config: { ...config, clock: 'real', timeScale: 1 } });
    await registry.control({ runId: id, message: { action: 'abort' } });
    await registry.whenFinished(id);
    expect((await store.readEvents({ runId: id })).at(-1)).toMatchObject({
      event: 'terminate',
      reason: 'aborted',
    });
    expect((await store.getRun(id))?.summary.status).toBe('aborted');
  });
});
