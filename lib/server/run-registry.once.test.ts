import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { createSqliteRunStore, importJsonl, toJsonl, type RunStore } from '@/lib/store';
import { sampleRunEvents } from '@/lib/store/sample-run.testkit';
import type * as RunTotalsModule from '@/lib/protocol/run-totals';
import type * as StorableModule from '@/lib/protocol/storable-event';
import type * as RedactModule from '@/lib/runtime/redact-secrets';
import { createRunRegistry, type RunListener } from './run-registry';

/**
 * A served run (the registry over the real launchRun, into the SQLite store): each event is
 * folded into the run's totals, made storable and redacted exactly once, wherever in the stack
 * that happens, the store's runs row included (it is written from the totals the run log handed
 * on with each batch). The three functions are wrapped where they are defined, so every caller
 * is counted.
 */
const calls = vi.hoisted(() => ({
  folded: [] as object[],
  storable: [] as object[],
  redacted: [] as string[],
}));

vi.mock('@/lib/protocol/run-totals', async (importOriginal) => {
  const actual = await importOriginal<typeof RunTotalsModule>();
  const addToTotals: typeof actual.addToTotals = (totals, event) => {
    calls.folded.push(event);
    return actual.addToTotals(totals, event);
  };
  // The whole-log folds call the fold inside their module: counted through the wrapped one.
  const foldTotals: typeof actual.foldTotals = (events) => {
    let totals = actual.NO_TOTALS;
    for (const event of events) totals = addToTotals(totals, event);
    return totals;
  };
  const runningTotals: typeof actual.runningTotals = (events) => {
    let totals = actual.NO_TOTALS;
    return events.map((event) => (totals = addToTotals(totals, event)));
  };
  return { ...actual, addToTotals, foldTotals, runningTotals };
});
vi.mock('@/lib/protocol/storable-event', async (importOriginal) => {
  const actual = await importOriginal<typeof StorableModule>();
  return {
    ...actual,
    toStorableEvent: (event: Parameters<typeof actual.toStorableEvent>[0]) => {
      calls.storable.push(event);
      return actual.toStorableEvent(event);
    },
  };
});
vi.mock('@/lib/runtime/redact-secrets', async (importOriginal) => {
  const actual = await importOriginal<typeof RedactModule>();
  return {
    ...actual,
    createRedactor: (options: Parameters<typeof actual.createRedactor>[0]) => {
      const redactor = actual.createRedactor(options);
      return {
        text: redactor.text,
        holdFrom: redactor.holdFrom,
        empty: redactor.empty,
        value: <T>(value: T): T => {
          if (isEvent(value)) calls.redacted.push(keyOf(value));
          return redactor.value(value);
        },
      };
    },
  };
});

function isEvent(value: unknown): value is RunEvent {
  return (
    typeof value === 'object' && value !== null && 'run_id' in value && 'seq' in value && 'event' in value
  );
}
/** Seq and type, read when asked: the run log numbers an event in place after folding it. */
function keyOf(event: RunEvent): string {
  return `${event.seq} ${event.event}`;
}

let dir: string;
let store: RunStore;
beforeEach(() => {
  calls.folded.length = 0;
  calls.storable.length = 0;
  calls.redacted.length = 0;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-once-'));
  store = createSqliteRunStore({ dir });
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a served run', () => {
  it('folds, converts and redacts each event once, and what a subscriber sees is what was stored', async () => {
    const config = RunConfigSchema.parse({
      provider: { vendor: 'sim-anthropic' },
      clock: 'virtual',
      seed: 3,
    });
    const registry = createRunRegistry({ store, launch: launchRun });
    const { id } = await registry.startRun({ config });
    const seen: RunEvent[] = [];
    const listener: RunListener = { onEvent: (event) => seen.push(event), onEnd: () => {} };
    await registry.subscribe({ runId: id, listener });
    await registry.whenFinished(id);

    const stored = await store.readEvents({ runId: id });
    const keys = stored.map(keyOf);
    expect(stored.at(-1)?.event).toBe('terminate');
    expect(stored.filter((e) => e.event === 'llm_call').length).toBeGreaterThan(2);
    // The config is redacted once when the run is stored; every other redaction is of an event.
    expect(calls.redacted).toEqual(keys);
    // Folded and converted objects are the events themselves (numbered in place after the fold).
    expect(new Set(calls.folded).size).toBe(calls.folded.length);
    expect(calls.folded.map((e) => keyOf(e as RunEvent))).toEqual(keys);
    expect(calls.storable.map((e) => keyOf(e as RunEvent))).toEqual(keys);
    expect(seen).toEqual(stored);
    // The runs row holds the run's totals as its terminate states them, with no fold of its own.
    const end = stored.at(-1) as Extract<RunEvent, { event: 'terminate' }>;
    expect((await store.getRun(id))?.summary).toMatchObject({
      input_tokens: end.input_tokens,
      output_tokens: end.output_tokens,
      usd: end.usd_so_far,
      event_count: stored.length,
    });
  });
});

describe('an imported run', () => {
  it('has no run log: the import folds its log once, for the runs row, and the store folds nothing again', async () => {
    const events = sampleRunEvents({ runId: 'elsewhere' });
    const result = await importJsonl({ store, text: toJsonl(events), redactor: { value: (value) => value } });
    if (!result.ok) throw new Error(result.errors.join('; '));
    expect(calls.folded.map((e) => (e as RunEvent).event)).toEqual(events.map((e) => e.event));
    expect((await store.getRun(result.id))?.summary).toMatchObject({
      input_tokens: 2200,
      output_tokens: 150,
      usd: 0.0088,
      event_count: events.length,
    });
  });
});
