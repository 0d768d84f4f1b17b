import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_TOTALS, RunConfigSchema, type RunConfig, type RunEvent, type RunTotals } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';
import { createSqliteRunStore, DB_FILE_NAME, type RunStore } from '@/lib/store';
import { sampleConfig, sampleRunEvents } from '@/lib/store/sample-run.testkit';
import { createRunRegistry } from './run-registry';

/**
 * A run cut off by a server restart is taken up by the next server's registry: re-executed from
 * its config and seed against its stored log, then on live. Each case stores a real run's first
 * k events as a killed process leaves them (no terminate, its owner gone), opens the store as
 * the server does and resumes.
 */

let dir: string;
let store: RunStore | undefined;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-resume-'));
});
afterEach(async () => {
  await store?.close();
  store = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

const FAULTS = {
  rules: [
    {
      id: 'limited',
      when: { kind: 'requests', numbers: [1, 3] },
      action: { type: 'http_error', status: 429, retryAfterSec: 2 },
    },
  ],
  tools: [],
};

function configOf(overrides: Record<string, unknown> = {}): RunConfig {
  return RunConfigSchema.parse({
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 11,
    clock: 'virtual',
    faults: FAULTS,
    ...overrides,
  });
}

interface Logged {
  events: RunEvent[];
  totals: Readonly<RunTotals>[];
}

/** A whole run in this process, uninterrupted: what a resumed one must end as. */
async function uninterrupted(runId: string, config: RunConfig): Promise<Logged> {
  const logged: Logged = { events: [], totals: [] };
  const handle = launchRun({
    runId,
    config,
    onEvent: (event, totals) => {
      logged.events.push(event);
      logged.totals.push(totals);
    },
  });
  await handle.done;
  return logged;
}

/** The first `k` events of a run stored as a SIGKILLed server leaves them: running, its owner gone. */
async function cutOff(runId: string, config: RunConfig, full: Logged, k: number): Promise<void> {
  const before = createSqliteRunStore({ dir });
  await before.createRun({ id: runId, config });
  if (k > 0) {
    const { inputTokens, outputTokens, usd } = full.totals[k - 1]!;
    await before.appendEvents({
      runId,
      events: full.events.slice(0, k),
      totals: { inputTokens, outputTokens, usd },
    });
  }
  await before.close();
  const db = new Database(path.join(dir, DB_FILE_NAME));
  db.prepare('UPDATE runs SET owner = NULL WHERE id = ?').run(runId); // the process is gone
  db.close();
}

/** Opens the store as the server does and lets a registry take up what was in flight. */
async function restart(): Promise<{
  store: RunStore;
  resumed: string[];
  closed: string[];
  finished: (id: string) => Promise<void>;
}> {
  store = createSqliteRunStore({ dir, keepResumable: true });
  const registry = createRunRegistry({ store, launch: launchRun });
  const { resumed, closed } = await registry.resumeInterrupted();
  return { store, resumed, closed, finished: (id) => registry.whenFinished(id) };
}

/** A log without its resume markers, renumbered: what it would be had the run not been cut off. */
const withoutMarkers = (events: readonly RunEvent[]): RunEvent[] =>
  events.filter((e) => e.event !== 'resumed_after_restart').map((e, seq) => ({ ...e, seq }));

let full: Logged;
beforeAll(async () => {
  full = await uninterrupted('cut', configOf());
}, 60_000);

describe('a run resumed after a restart', () => {
  it.each([
    ['nothing stored', 0],
    ['run_start only', 1],
    ['a third of the way', 0.33],
    ['mid-stream, two thirds in', 0.66],
    ['every event but the terminate', -1],
  ])(
    'ends as the uninterrupted run of its seed (%s)',
    async (_label, at) => {
      const k = at === -1 ? full.events.length - 1 : at < 1 ? Math.floor(full.events.length * at) : at;
      await cutOff('cut', configOf(), full, k);
      const server = await restart();
      expect(server).toMatchObject({ resumed: ['cut'], closed: [] });
      await server.finished('cut');

      const log = await server.store.readEvents({ runId: 'cut' });
      expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i));
      // The stored events are as they were, the marker right after them, then the run goes on.
      expect(log.slice(0, k)).toEqual(full.events.slice(0, k));
      const marker = log[Math.max(k, 1)]!;
      expect(marker).toMatchObject({ event: 'resumed_after_restart', replayed: k });
      expect(withoutMarkers(log)).toEqual(full.events);
      expect((await server.store.getRun('cut'))?.summary).toMatchObject({
        event_count: full.events.length + 1,
        input_tokens: full.totals.at(-1)!.inputTokens,
        output_tokens: full.totals.at(-1)!.outputTokens,
      });
    },
    60_000,
  );

  it('names the turn it goes on in: the last the stored log started', async () => {
    const starts = full.events.filter((e) => e.event === 'iteration_start');
    const third = starts[2]!;
    await cutOff('cut', configOf(), full, third.seq + 3);
    const server = await restart();
    await server.finished('cut');
    const marker = (await server.store.readEvents({ runId: 'cut' }))[third.seq + 3]!;
    expect(marker).toMatchObject({
      event: 'resumed_after_restart',
      at_turn: third.iteration,
      iteration: third.iteration,
    });
  }, 60_000);

  it('ends with the reason, after the stored log, when the re-execution differs from it', async () => {
    const k = Math.floor(full.events.length / 2);
    // A stored log the config and seed do not give (as if the code had changed between the two servers).
    const tampered = { ...full, events: full.events.map((e) => (e.seq === 5 ? { ...e, ts: e.ts + 1 } : e)) };
    await cutOff('cut', configOf(), tampered, k);
    const server = await restart();
    expect(server).toMatchObject({ resumed: ['cut'], closed: [] });
    await server.finished('cut');
    const log = await server.store.readEvents({ runId: 'cut' });
    expect(log).toHaveLength(k + 1);
    expect(log.slice(0, k)).toEqual(tampered.events.slice(0, k));
    const end = log[k]!;
    expect(end).toMatchObject({ event: 'terminate', seq: k, reason: 'server_restart', complete: false });
    expect(end.event === 'terminate' && end.message).toMatch(
      new RegExp(`at seq 5 the stored ${full.events[5]!.event} and the regenerated one differ in ts`),
    );
    expect((await server.store.getRun('cut'))?.summary.status).toBe('failed');
  }, 60_000);

  it('is not resumed, and says why, when its config is not all it depended on', async () => {
    const real = configOf({ clock: 'real', timeScale: 0.01 });
    const realRun = await uninterrupted('real', real);
    await cutOff('real', real, realRun, 4);
    const server = await restart();
    // Closed as the store opened: nothing for the registry.
    expect(server).toMatchObject({ resumed: [], closed: [] });
    const end = (await server.store.readEvents({ runId: 'real' })).at(-1)!;
    expect(end).toMatchObject({ event: 'terminate', seq: 4, reason: 'server_restart' });
    expect(end.event === 'terminate' && end.message).toMatch(/not resumed: it ran on the real clock/);
  }, 60_000);

  it('is not resumed when a control message changed it while it ran', async () => {
    const k = 6;
    const controlled = {
      ...full,
      events: full.events.map((e): RunEvent =>
        e.seq === 4 ? { run_id: e.run_id, seq: 4, ts: e.ts, event: 'control', action: 'compact' } : e,
      ),
    };
    await cutOff('cut', configOf(), controlled, k);
    const server = await restart();
    expect(server).toMatchObject({ resumed: [], closed: ['cut'] });
    const end = (await server.store.readEvents({ runId: 'cut' })).at(-1)!;
    expect(end).toMatchObject({ event: 'terminate', seq: k, reason: 'server_restart' });
    expect(end.event === 'terminate' && end.message).toMatch(
      /^the server process executing this run stopped while it was in flight; not resumed: a control message \(compact, seq 4\)/,
    );
  }, 60_000);
});

describe('a checkpoint at the end of each turn', () => {
  it('writes the log through a turn as the next turn starts, not at the next timed flush', async () => {
    store = createSqliteRunStore({ dir });
    const [start, turn, ...rest] = sampleRunEvents({ runId: 'r' });
    let release!: () => void;
    const registry = createRunRegistry({
      store,
      launch: ({ runId, onEvent }) => {
        const stamp = (e: RunEvent): RunEvent => ({ ...e, run_id: runId });
        onEvent(stamp(start!), NO_TOTALS);
        onEvent(stamp(turn!), NO_TOTALS);
        const done = new Promise<void>((resolve) => (release = resolve)).then(() => {
          for (const e of rest) onEvent(stamp(e), NO_TOTALS);
        });
        return { runId, control: () => {}, done, redactText: (text) => text };
      },
    });
    const { id } = await registry.startRun({ config: sampleConfig() });
    // A timer set after the turn began: it fires before the timed flush (FLUSH_MS, 100 ms) could.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await store.readEvents({ runId: id })).map((e) => e.event)).toEqual([
      'run_start',
      'iteration_start',
    ]);
    release();
    await registry.whenFinished(id);
    expect((await store.readEvents({ runId: id })).at(-1)?.event).toBe('terminate');
  });
});
