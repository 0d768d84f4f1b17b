import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClock } from '@/lib/clock';
import { NO_TOTALS, type EventBody, type RunEvent } from '@/lib/protocol';
import { createRunLog } from '@/lib/runtime/run-log';
import { createSqliteRunStore, DB_FILE_NAME, type RunStore } from '@/lib/store';
import { batchOf, sampleConfig, sampleRunEvents } from '@/lib/store/sample-run.testkit';
import { createFakeLaunch } from './fake-launch.testkit';
import { HttpError } from './http-error';
import { createRunRegistry, FLUSH_MS, type RunListener } from './run-registry';

let dir: string;
let store: RunStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-registry-'));
  store = createSqliteRunStore({ dir });
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function collector(): RunListener & { events: RunEvent[]; ended: boolean } {
  const c = {
    events: [] as RunEvent[],
    ended: false,
    onEvent: (event: RunEvent) => c.events.push(event),
    onEnd: () => {
      c.ended = true;
    },
  };
  return c;
}

function expectContiguous(events: readonly RunEvent[], from: number, to: number): void {
  expect(events.map((e) => e.seq)).toEqual(Array.from({ length: to - from + 1 }, (_, i) => from + i));
}

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('run registry', () => {
  it('stores a run and serves subscribers that join mid-run with no gap and no duplicate', async () => {
    const fake = createFakeLaunch({ steps: 30, tickMs: 1 });
    const registry = createRunRegistry({ store, launch: fake.launch });
    const { id } = await registry.startRun({ config: sampleConfig() });
    const first = collector();
    await registry.subscribe({ runId: id, listener: first });
    while (first.events.length < 12) await tick(1);
    // A reconnect that had seen up to seq 7, and a fresh subscriber joining now.
    const resumed = collector();
    await registry.subscribe({ runId: id, afterSeq: 7, listener: resumed });
    const late = collector();
    await registry.subscribe({ runId: id, listener: late });
    await registry.whenFinished(id);

    const total = 32; // run_start + 30 deltas + terminate
    expectContiguous(first.events, 0, total - 1);
    expectContiguous(resumed.events, 8, total - 1);
    expectContiguous(late.events, 0, total - 1);
    expect([first.ended, resumed.ended, late.ended]).toEqual([true, true, true]);
    expect(await store.readEvents({ runId: id })).toEqual(first.events);
    expect((await store.getRun(id))?.summary).toMatchObject({ status: 'completed', event_count: total });
    expect(await registry.isLive(id)).toBe(false);
  });

  it('sends a subscriber only events the store already holds, so a crash loses nothing anyone saw', async () => {
    const fake = createFakeLaunch({ steps: 40, tickMs: 1 });
    const registry = createRunRegistry({ store, launch: fake.launch });
    const { id } = await registry.startRun({ config: sampleConfig() });
    const unstored: number[] = [];
    const checks: Promise<void>[] = [];
    const seen = collector();
    await registry.subscribe({
      runId: id,
      listener: {
        onEvent: (event) => {
          // What a process killed right now would leave: the store as it stands (the SQLite store
          // reads it within the call, as the event is handed over).
          checks.push(
            store.readEvents({ runId: id, afterSeq: event.seq - 1 }).then((stored) => {
              if (!stored.some((e) => e.seq === event.seq)) unstored.push(event.seq);
            }),
          );
          seen.onEvent(event);
        },
        onEnd: seen.onEnd,
      },
    });
    await registry.whenFinished(id);
    await Promise.all(checks);
    expectContiguous(seen.events, 0, 41);
    expect(unstored).toEqual([]);
  });

  it('tells a reader of the store when a live run has its first event stored', async () => {
    const fake = createFakeLaunch({ steps: 5, tickMs: 1 });
    const registry = createRunRegistry({ store, launch: fake.launch });
    const { id } = await registry.startRun({ config: sampleConfig() });
    expect(await store.readEvents({ runId: id })).toEqual([]);
    await registry.whenLogged(id);
    expect((await store.readEvents({ runId: id }))[0]?.event).toBe('run_start');
    await registry.whenFinished(id);
    await registry.whenLogged(id); // at once for a run that is not live
  });

  it('answers a subscriber of a run started a moment ago from memory, without reading the store', async () => {
    let reads = 0;
    const counted: RunStore = {
      ...store,
      readEvents: (options) => {
        reads += 1;
        return store.readEvents(options);
      },
    };
    const fake = createFakeLaunch({ steps: 20, tickMs: 1 });
    const registry = createRunRegistry({ store: counted, launch: fake.launch });
    const { id } = await registry.startRun({ config: sampleConfig() });
    // As POST /api/runs does: the events so far, right after the start (its run_start, written now).
    const atStart = collector();
    (await registry.subscribe({ runId: id, listener: atStart }))();
    expect(atStart.events.map((e) => e.event)).toEqual(['run_start']);
    expect(await store.readEvents({ runId: id })).toEqual(atStart.events);
    const watcher = collector();
    await registry.subscribe({ runId: id, listener: watcher });
    await registry.whenFinished(id);
    expect(reads).toBe(0);
    expectContiguous(watcher.events, 0, 21);
    expect(await store.readEvents({ runId: id })).toEqual(watcher.events);
  });

  it('replays from the store when the resume point is older than the in-memory tail', async () => {
    const fake = createFakeLaunch({ steps: 700, tickMs: 0, holdAt: 650 });
    const registry = createRunRegistry({ store, launch: fake.launch });
    const { id } = await registry.startRun({ config: sampleConfig() });
    const watcher = collector();
    await registry.subscribe({ runId: id, listener: watcher });
    while (watcher.events.length < 651) await tick(1);
    const fromStart = collector();
    const fromTen = collector();
    const nearEdge = collector();
    await registry.subscribe({ runId: id, afterSeq: -1, listener: fromStart });
    await registry.subscribe({ runId: id, afterSeq: 10, listener: fromTen });
    await registry.subscribe({ runId: id, afterSeq: 600, listener: nearEdge });
    fake.release();
    await registry.whenFinished(id);
    expectContiguous(fromStart.events, 0, 701);
    expectContiguous(fromTen.events, 11, 701);
    expectContiguous(nearEdge.events, 601, 701);
  });

  it('sends a subscriber whose replay the store answers slowly what was published meanwhile, after it, with no gap', async () => {
    // A store that answers reads late, as a server database across the network does: events go on
    // being stored and published while a reconnect's replay is still being read.
    let slowReads = 0;
    const slow: RunStore = {
      ...store,
      readEvents: async (options) => {
        const rows = await store.readEvents(options);
        slowReads += 1;
        await tick(30);
        return rows;
      },
    };
    const fake = createFakeLaunch({ steps: 700, tickMs: 0, holdAt: 650 });
    const registry = createRunRegistry({ store: slow, launch: fake.launch });
    const { id } = await registry.startRun({ config: sampleConfig() });
    const watcher = collector();
    await registry.subscribe({ runId: id, listener: watcher });
    while (watcher.events.length < 651) await tick(1);
    // Seq 10 is older than the in-memory tail: the replay is read from the store.
    const resumed = collector();
    const subscribing = registry.subscribe({ runId: id, afterSeq: 10, listener: resumed });
    fake.release();
    await subscribing;
    await registry.whenFinished(id);
    expect(slowReads).toBe(1);
    expectContiguous(resumed.events, 11, 701);
    expect(resumed.ended).toBe(true);
  });

  it("stores and publishes one run's batches in order though the store answers each write late", async () => {
    // The first write of the run is the slowest: a later batch must wait for it, not overtake it.
    const inFlight = new Map<string, number>();
    let overlapped = false;
    let delay = 40;
    const slow: RunStore = {
      ...store,
      appendEvents: async (options) => {
        const now = (inFlight.get(options.runId) ?? 0) + 1;
        inFlight.set(options.runId, now);
        if (now > 1) overlapped = true;
        await tick((delay = Math.max(0, delay - 10)));
        try {
          await store.appendEvents(options);
        } finally {
          inFlight.set(options.runId, inFlight.get(options.runId)! - 1);
        }
      },
      appendEventBatches: async (batches) => {
        for (const { runId } of batches) {
          const now = (inFlight.get(runId) ?? 0) + 1;
          inFlight.set(runId, now);
          if (now > 1) overlapped = true;
        }
        await tick((delay = Math.max(0, delay - 10)));
        try {
          await store.appendEventBatches(batches);
        } finally {
          for (const { runId } of batches) inFlight.set(runId, inFlight.get(runId)! - 1);
        }
      },
    };
    const fake = createFakeLaunch({ steps: 600, tickMs: 0 });
    const registry = createRunRegistry({ store: slow, launch: fake.launch });
    const { id } = await registry.startRun({ config: sampleConfig() });
    const watcher = collector();
    await registry.subscribe({ runId: id, listener: watcher });
    await registry.whenFinished(id);
    expect(overlapped).toBe(false);
    expectContiguous(watcher.events, 0, 601);
    expect(watcher.events.some((e) => e.event === 'storage_error')).toBe(false);
    expect(await store.readEvents({ runId: id })).toEqual(watcher.events);
  });

  it('serves a finished run from the store, from any resume point, always ending with its terminate', async () => {
    const registry = createRunRegistry({ store, launch: createFakeLaunch({ steps: 5 }).launch });
    const { id } = await registry.startRun({ config: sampleConfig() });
    await registry.whenFinished(id);
    const all = collector();
    const tail = collector();
    const atEnd = collector();
    const past = collector();
    await registry.subscribe({ runId: id, listener: all });
    await registry.subscribe({ runId: id, afterSeq: 4, listener: tail });
    await registry.subscribe({ runId: id, afterSeq: 6, listener: atEnd });
    await registry.subscribe({ runId: id, afterSeq: 70, listener: past });
    expectContiguous(all.events, 0, 6);
    expectContiguous(tail.events, 5, 6);
    // A reader that had the end already, or names a seq past it, is sent the terminate again.
    expect(atEnd.events.map((e) => [e.seq, e.event])).toEqual([[6, 'terminate']]);
    expect(past.events.map((e) => [e.seq, e.event])).toEqual([[6, 'terminate']]);
    expect([all.ended, tail.ended, atEnd.ended, past.ended]).toEqual([true, true, true, true]);
    await expect(registry.subscribe({ runId: 'nope', listener: collector() })).rejects.toThrow(HttpError);
  });

  it('passes control messages to a live run and refuses them for finished or unknown runs', async () => {
    const fake = createFakeLaunch({ steps: 10, holdAt: 2 });
    const registry = createRunRegistry({ store, launch: fake.launch });
    const { id } = await registry.startRun({ config: sampleConfig() });
    await registry.control({
      runId: id,
      message: { action: 'set_faults', faults: { rules: [], tools: [] } },
    });
    await registry.control({ runId: id, message: { action: 'abort' } });
    await registry.whenFinished(id);
    expect(fake.controls.map((c) => c.action)).toEqual(['set_faults', 'abort']);
    expect((await store.getRun(id))?.summary).toMatchObject({ status: 'aborted', reason: 'aborted' });
    const finished = await (async () => {
      try {
        await registry.control({ runId: id, message: { action: 'abort' } });
      } catch (error) {
        return error as HttpError;
      }
    })();
    expect(finished?.status).toBe(409);
    expect(finished?.message).toMatch(/already finished \(aborted\)/);
    await expect(registry.control({ runId: 'nope', message: { action: 'abort' } })).rejects.toThrow(
      /No run with id "nope"/,
    );
  });

  it('abandons a run nobody watches, counting from the last unsubscribe', async () => {
    const fake = createFakeLaunch({ steps: 10, holdAt: 1 });
    const registry = createRunRegistry({ store, launch: fake.launch, unwatchedMs: 40 });
    const unwatched = await registry.startRun({ config: sampleConfig() });
    const watched = await registry.startRun({ config: sampleConfig() });
    const unsubscribe = await registry.subscribe({ runId: watched.id, listener: collector() });
    await registry.whenFinished(unwatched.id);
    expect((await store.getRun(unwatched.id))?.summary).toMatchObject({
      status: 'aborted',
      reason: 'abandoned',
    });
    expect(await registry.isLive(watched.id)).toBe(true);
    unsubscribe();
    await registry.whenFinished(watched.id);
    expect((await store.getRun(watched.id))?.summary.reason).toBe('abandoned');
    expect(fake.controls).toEqual([
      { action: 'abort', reason: 'abandoned' },
      { action: 'abort', reason: 'abandoned' },
    ]);
  });

  it('hands the key to launch only and redacts it from events and the store', async () => {
    const key = 'sk-test-0123456789abcdefSECRET';
    const fake = createFakeLaunch({ steps: 3 });
    const registry = createRunRegistry({ store, launch: fake.launch });
    const { id } = await registry.startRun({ config: sampleConfig(), apiKey: key });
    const watcher = collector();
    await registry.subscribe({ runId: id, listener: watcher });
    await registry.whenFinished(id);
    expect(fake.apiKeys).toEqual([key]);
    expect(JSON.stringify(watcher.events)).not.toContain(key);
    expect(JSON.stringify(watcher.events)).toContain('[redacted]');
    await store.close();
    const bytes = fs
      .readdirSync(dir)
      .filter((n) => n.startsWith(DB_FILE_NAME))
      .map((n) => fs.readFileSync(path.join(dir, n)).toString('latin1'))
      .join('');
    expect(bytes).not.toContain(key);
    store = createSqliteRunStore({ dir });
  });

  it('redacts environment keys and keys JSON would escape; a key that is a word of the log rewrites nothing', async () => {
    const envKey = 'sk-proj-EnvCanary-0123456789abcdef';
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = envKey;
    try {
      const odd = 'sk-odd\\key"quote\nline-0123456789';
      const fake = createFakeLaunch({ steps: 2 });
      const registry = createRunRegistry({ store, launch: fake.launch });
      const runs = [
        await registry.startRun({ config: sampleConfig(), apiKey: odd }),
        await registry.startRun({ config: sampleConfig(), apiKey: envKey }),
      ];
      for (const { id } of runs) await registry.whenFinished(id);
      const stored = (await Promise.all(runs.map(({ id }) => store.readEvents({ runId: id }))))
        .map((events) => JSON.stringify(events))
        .join('');
      expect(stored).not.toContain(envKey);
      expect(stored).not.toContain(JSON.stringify(odd).slice(1, -1));
      expect(stored).toContain('[redacted]');

      // A "key" equal to the terminate event's own name: the run still ends, its log intact.
      const word = await registry.startRun({ config: sampleConfig(), apiKey: 'terminate' });
      await registry.whenFinished(word.id);
      expect((await store.getRun(word.id))?.summary).toMatchObject({
        status: 'completed',
        reason: 'end_turn',
      });
      expect((await store.readEvents({ runId: word.id })).at(-1)).toMatchObject({
        event: 'terminate',
        complete: true,
      });
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it('writes no event of its own: a launch that throws is refused at start, one that ends without terminate is dropped as it left its log', async () => {
    const registry = createRunRegistry({
      store,
      launch: () => {
        throw new Error('unknown scenario "x"');
      },
    });
    await expect(registry.startRun({ config: sampleConfig() })).rejects.toThrow('unknown scenario "x"');
    const silent = createRunRegistry({
      store,
      launch: ({ runId, onEvent }) => {
        onEvent(sampleRunEvents({ runId })[0]!, NO_TOTALS);
        return { runId, control: () => {}, done: Promise.resolve(), redactText: (text) => text };
      },
    });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const second = await silent.startRun({ config: sampleConfig() });
    await silent.whenFinished(second.id);
    errors.mockRestore();
    expect(await silent.isLive(second.id)).toBe(false);
    expect((await store.readEvents({ runId: second.id })).map((e) => e.event)).toEqual(['run_start']);
  });

  it('closes a run in the store that is not live here when someone asks for it', async () => {
    await store.createRun({ id: 'orphan', config: sampleConfig() });
    await store.appendEvents({ runId: 'orphan', ...batchOf(sampleRunEvents({ runId: 'orphan' }), 0, 3) });
    const registry = createRunRegistry({ store, launch: createFakeLaunch().launch });
    const watcher = collector();
    await registry.subscribe({ runId: 'orphan', afterSeq: 1, listener: watcher });
    expect(watcher.events.map((e) => e.event)).toEqual(['llm_call', 'terminate']);
    expect(watcher.events[1]).toMatchObject({ seq: 3, reason: 'server_restart', input_tokens: 1000 });
    expect(watcher.ended).toBe(true);
    expect((await store.getRun('orphan'))?.summary.status).toBe('failed');
  });

  it('stores an event it cannot encode as a storage_error in its place, and the run goes on', async () => {
    let args: unknown = 'leaf';
    for (let i = 0; i < 10_000; i++) args = { a: args };
    const registry = createRunRegistry({
      store,
      launch: ({ runId, onEvent }) => {
        const { run_id: _id, seq: _seq, ts: _ts, ...start } = sampleRunEvents({ runId })[0]!;
        // The run log (as launchRun's) puts a storage_error in the place of an event it cannot encode.
        const log = createRunLog({
          runId,
          clock: createClock({ kind: 'virtual', timeScale: 1 }),
          env: {},
          onEvent,
        });
        const emit = (body: EventBody): void => void log.emit(body);
        const done = (async () => {
          emit(start);
          emit({
            event: 'tool_call',
            iteration: 1,
            call_id: 'c1',
            tool: 'edit_file',
            args,
            result: 'invalid',
            result_chars: 7,
            is_error: true,
            latency_ms: 1,
          });
          for (let i = 0; i < 3; i++) {
            await tick(1);
            emit({
              event: 'content_delta',
              iteration: 2,
              attempt: 1,
              index: 0,
              kind: 'text',
              text: `after ${i}`,
            });
          }
          emit({
            event: 'terminate',
            reason: 'end_turn',
            complete: true,
            usd_so_far: 0,
            input_tokens: 0,
            output_tokens: 0,
          });
        })();
        return { runId, control: () => {}, done, redactText: log.redactText };
      },
    });
    const { id } = await registry.startRun({ config: sampleConfig() });
    const watcher = collector();
    await registry.subscribe({ runId: id, listener: watcher });
    await registry.whenFinished(id);

    const stored = await store.readEvents({ runId: id });
    expect(stored.map((e) => e.event)).toEqual([
      'run_start',
      'storage_error',
      'content_delta',
      'content_delta',
      'content_delta',
      'terminate',
    ]);
    expect(stored[1]).toMatchObject({ seq: 1, iteration: 1, replaces: 'tool_call' });
    expect((stored[1] as { message: string }).message).toContain('nests deeper than');
    expect(watcher.events.map((e) => e.event)).toEqual(stored.map((e) => e.event));
    expect((await store.getRun(id))?.summary).toMatchObject({ status: 'completed', event_count: 6 });
    // A late reader (the SSE route, the trace download) encodes every stored event.
    expect(() => stored.map((e) => JSON.stringify(e))).not.toThrow();
  });
  it('writes a live log in batches at most FLUSH_MS behind, and at once when asked', async () => {
    vi.useFakeTimers();
    try {
      let transactions = 0;
      const counted: RunStore = {
        ...store,
        appendEvents: (options) => (transactions++, store.appendEvents(options)),
        appendEventBatches: (batches) => (transactions++, store.appendEventBatches(batches)),
      };
      // One event a millisecond, each from its own timer: a batch per macrotask would be 31 transactions.
      const fake = createFakeLaunch({ steps: 30, tickMs: 1, holdAt: 20 });
      const registry = createRunRegistry({ store: counted, launch: fake.launch });
      const { id } = await registry.startRun({ config: sampleConfig() });
      await vi.advanceTimersByTimeAsync(25);
      // 21 events made (run_start and 20 deltas), none written yet: they wait for the batch.
      expect(await store.readEvents({ runId: id })).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(FLUSH_MS);
      expect((await store.readEvents({ runId: id })).map((e) => e.seq)).toEqual(
        Array.from({ length: 21 }, (_, i) => i),
      );
      expect(transactions).toBe(1);

      fake.release();
      await vi.advanceTimersByTimeAsync(3);
      // A reader of the store (a fork of this running run) asks for what is waiting.
      await registry.writePending(id);
      expect((await store.readEvents({ runId: id })).length).toBeGreaterThan(21);
      expect(transactions).toBe(2);
      await vi.advanceTimersByTimeAsync(50);
      await registry.whenFinished(id);
      expect(await store.readEvents({ runId: id })).toHaveLength(32);
      expect((await store.readEvents({ runId: id })).at(-1)?.event).toBe('terminate');
      expect(transactions).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
  it('writes the batches of every live run due at once in one transaction, and each run alone when that one fails', async () => {
    vi.useFakeTimers();
    try {
      const commits: string[][] = [];
      let refuse = false;
      const counted: RunStore = {
        ...store,
        appendEvents: (options) => (commits.push([options.runId]), store.appendEvents(options)),
        appendEventBatches: async (batches) => {
          if (refuse) throw new Error('disk full');
          commits.push(batches.map((b) => b.runId));
          await store.appendEventBatches(batches);
        },
      };
      const fake = createFakeLaunch({ steps: 30, tickMs: 1, holdAt: 20 });
      const registry = createRunRegistry({ store: counted, launch: fake.launch });
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) ids.push((await registry.startRun({ config: sampleConfig() })).id);
      await vi.advanceTimersByTimeAsync(25);
      await vi.advanceTimersByTimeAsync(FLUSH_MS);
      // Three live runs, 21 events each: one commit for all three, not one a run.
      expect(commits).toEqual([ids]);
      for (const id of ids) expect(await store.readEvents({ runId: id })).toHaveLength(21);

      refuse = true;
      fake.release();
      await vi.advanceTimersByTimeAsync(3);
      await vi.advanceTimersByTimeAsync(FLUSH_MS);
      // The shared commit failed as a whole: each run's batch is written on its own, nothing lost.
      for (const id of ids) expect((await store.readEvents({ runId: id })).length).toBeGreaterThan(21);
      await vi.advanceTimersByTimeAsync(50);
      for (const id of ids) {
        await registry.whenFinished(id);
        expect((await store.readEvents({ runId: id })).map((e) => e.seq)).toEqual(
          Array.from({ length: 32 }, (_, i) => i),
        );
      }
    } finally {
      vi.useRealTimers();
    }
  });
});
