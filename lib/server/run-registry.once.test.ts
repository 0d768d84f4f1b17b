import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunConfigSchema, type RunEvent } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { createSqliteRunStore, type RunStore } from '@/lib/store';
import type * as RunTotalsModule from '@/lib/protocol/run-totals';
import type * as StorableModule from '@/lib/protocol/storable-event';
import type * as RedactModule from '@/lib/runtime/redact-secrets';
import { createRunRegistry, type RunListener } from './run-registry';

/**
 * A served run (the registry over the real launchRun): each event is folded into the run's
 * totals, made storable and redacted exactly once, wherever in the stack that happens. The
 * three functions are wrapped where they are defined, so every caller is counted. (The store's
 * summary row is its own fold over what it stores, once an event too, counted apart.)
 */
const calls = vi.hoisted(() => ({ folded: [] as object[], summarized: [] as object[], storable: [] as object[], redacted: [] as string[] }));

vi.mock('@/lib/protocol/run-totals', async (importOriginal) => {
  const actual = await importOriginal<typeof RunTotalsModule>();
  return {
    ...actual,
    addToTotals: (totals: Parameters<typeof actual.addToTotals>[0], event: Parameters<typeof actual.addToTotals>[1]) => {
      // The store's summary row folds each stored batch for the runs list (lib/store/summarize-events.ts): counted apart.
      if (new Error().stack?.includes('summarize-events')) calls.summarized.push(event);
      else calls.folded.push(event);
      return actual.addToTotals(totals, event);
    },
  };
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
  return typeof value === 'object' && value !== null && 'run_id' in value && 'seq' in value && 'event' in value;
}
/** Seq and type, read when asked: the run log numbers an event in place after folding it. */
function keyOf(event: RunEvent): string {
  return `${event.seq} ${event.event}`;
}

let dir: string;
let store: RunStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-once-'));
  store = createSqliteRunStore({ dir });
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a served run', () => {
  it('folds, converts and redacts each event once, and what a subscriber sees is what was stored', async () => {
    const config = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, clock: 'virtual', seed: 3 });
    const registry = createRunRegistry({ store, launch: launchRun });
    const { id } = registry.startRun({ config });
    const seen: RunEvent[] = [];
    const listener: RunListener = { onEvent: (event) => seen.push(event), onEnd: () => {} };
    registry.subscribe({ runId: id, listener });
    await registry.whenFinished(id);

    const stored = store.readEvents({ runId: id });
    const keys = stored.map(keyOf);
    expect(stored.at(-1)?.event).toBe('terminate');
    expect(stored.filter((e) => e.event === 'llm_call').length).toBeGreaterThan(2);
    // The config is redacted once when the run is stored; every other redaction is of an event.
    expect(calls.redacted).toEqual(keys);
    // Folded and converted objects are the events themselves (numbered in place after the fold).
    expect(new Set(calls.folded).size).toBe(calls.folded.length);
    expect(calls.folded.map((e) => keyOf(e as RunEvent))).toEqual(keys);
    expect(calls.storable.map((e) => keyOf(e as RunEvent))).toEqual(keys);
    expect(calls.summarized.map((e) => keyOf(e as RunEvent))).toEqual(keys);
    expect(seen).toEqual(stored);
  });
});
