import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventJson, NO_TOTALS, SweepGridSchema } from '@/lib/protocol';
import { createSqliteRunStore, DB_FILE_NAME } from './sqlite-run-store';
import { createSqliteSweepStore } from './sqlite-sweep-store';
import { batchOf, sampleConfig, sampleRunEvents } from './sample-run.testkit';
import { summarizeEvents } from './summarize-events';
import { migrate, SCHEMA_VERSION } from './sqlite-schema';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-schema-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The events table's definition as SQLite keeps it. */
function eventsTableSql(db: Database.Database): string {
  return (
    db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'events'").get() as {
      sql: string;
    }
  ).sql;
}

describe('store migrations', () => {
  it('skips a step another process applied after this one read the version (two processes opening a new folder)', () => {
    const file = path.join(dir, DB_FILE_NAME);
    const first = new Database(file);
    const second = new Database(file);
    // The second read the version (0) just before the first migrated the file whole.
    const read = second.pragma.bind(second);
    let stale = true;
    second.pragma = ((source: string, options?: Database.PragmaOptions) => {
      if (stale && source === 'user_version' && options?.simple) {
        stale = false;
        return 0;
      }
      return read(source, options);
    }) as typeof second.pragma;
    migrate(first);
    expect(() => migrate(second)).not.toThrow();
    expect(read('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    first.close();
    second.close();
  });

  it('opens a database whose events table is WITHOUT ROWID (schema 6) and reads every stored run exactly as before', async () => {
    // A database as the build before the rowid events table left it, two runs stored as that
    // store wrote them: a run row, its summary, and one events row per event.
    const old = new Database(path.join(dir, DB_FILE_NAME));
    migrate(old, 6);
    expect(eventsTableSql(old)).toMatch(/WITHOUT ROWID/);
    const runs = ['r-b', 'r-a'].map((id) => ({ id, events: sampleRunEvents({ runId: id }) }));
    const insertEvent = old.prepare(
      'INSERT INTO events (run_id, seq, type, ts, body) VALUES (?, ?, ?, ?, ?)',
    );
    runs.forEach(({ id, events }, index) => {
      const summary = summarizeEvents(events, NO_TOTALS);
      old
        .prepare(
          'INSERT INTO runs (id, created_at, config, status, terminate_reason, complete, event_count, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          id,
          1000 + index,
          JSON.stringify(sampleConfig()),
          'ended',
          summary.reason,
          summary.complete === null ? null : Number(summary.complete),
          events.length,
          summary.maxTs,
        );
      // Stored out of seq order: the copy must put them back in order.
      for (const event of [...events].reverse())
        insertEvent.run(id, event.seq, event.event, event.ts, eventJson(event));
    });
    const before = runs.map(({ id }) =>
      old.prepare('SELECT seq, type, ts, body FROM events WHERE run_id = ? ORDER BY seq').all(id),
    );
    old.close();

    const store = createSqliteRunStore({ dir });
    try {
      for (const { id, events } of runs) {
        expect(await store.readEvents({ runId: id })).toEqual(events);
        expect(await store.readEvents({ runId: id, afterSeq: 3 })).toEqual(events.slice(4));
        expect((await store.getRun(id))?.summary.event_count).toBe(events.length);
      }
      // A run stored after the migration reads back too, and a repeated seq is still refused.
      const fresh = sampleRunEvents({ runId: 'r-new' });
      await store.createRun({ id: 'r-new', config: sampleConfig() });
      await store.appendEvents({ runId: 'r-new', ...batchOf(fresh) });
      expect(await store.readEvents({ runId: 'r-new' })).toEqual(fresh);
    } finally {
      await store.close();
    }

    const db = new Database(path.join(dir, DB_FILE_NAME));
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(eventsTableSql(db)).not.toMatch(/WITHOUT ROWID/);
      // Every column of every row as it was.
      expect(
        runs.map(({ id }) =>
          db.prepare('SELECT seq, type, ts, body FROM events WHERE run_id = ? ORDER BY seq').all(id),
        ),
      ).toEqual(before);
      expect(() =>
        db
          .prepare('INSERT INTO events (run_id, seq, type, ts, body) VALUES (?, ?, ?, ?, ?)')
          .run('r-a', 0, 'x', 0, '{}'),
      ).toThrow(/UNIQUE/);
      // Deleting a run still deletes its events.
      db.pragma('foreign_keys = ON');
      db.prepare('DELETE FROM runs WHERE id = ?').run('r-a');
      expect(db.prepare('SELECT COUNT(*) AS n FROM events WHERE run_id = ?').get('r-a')).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('gives a run stored before routes were kept (schema 7) every vendor it used, from its log, once', async () => {
    const old = new Database(path.join(dir, DB_FILE_NAME));
    migrate(old, 7);
    const handling = { foreignThinking: 'drop', naive: false } as const;
    const base = sampleRunEvents({ runId: 'r-old' });
    // The sample run with a swap to OpenAI before its second turn and a fallback model after it.
    const events = [
      ...base.slice(0, 4),
      {
        run_id: 'r-old',
        seq: 0,
        ts: 1250,
        event: 'swap',
        iteration: 1,
        from_vendor: 'sim-anthropic',
        from_model: 'claude-sim-sonnet',
        to_vendor: 'sim-openai',
        to_model: 'gpt-sim',
        dialect: 'openai-chat',
        cause: 'scheduled',
        handling,
      },
      {
        run_id: 'r-old',
        seq: 0,
        ts: 1260,
        event: 'fallback',
        iteration: 1,
        from_model: 'gpt-sim',
        to_model: 'gpt-sim-mini',
        reason: '3 consecutive overloaded errors',
      },
      ...base.slice(4),
    ].map((e, seq) => ({ ...e, seq })) as ReturnType<typeof sampleRunEvents>;
    const summary = summarizeEvents(events, NO_TOTALS);
    old
      .prepare(
        'INSERT INTO runs (id, created_at, config, status, vendor, model, event_count, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        'r-old',
        1000,
        JSON.stringify(sampleConfig()),
        'completed',
        'sim-anthropic',
        'claude-sim-sonnet',
        events.length,
        summary.maxTs,
      );
    const insertEvent = old.prepare(
      'INSERT INTO events (run_id, seq, type, ts, body) VALUES (?, ?, ?, ?, ?)',
    );
    for (const event of events) insertEvent.run('r-old', event.seq, event.event, event.ts, eventJson(event));
    old.close();

    const store = createSqliteRunStore({ dir });
    try {
      const expected = [
        { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
        { vendor: 'sim-openai', model: 'gpt-sim' },
        { vendor: 'sim-openai', model: 'gpt-sim-mini' },
      ];
      expect((await store.listRuns())[0]?.vendors).toEqual(expected);
      expect((await store.getRun('r-old'))?.summary.vendors).toEqual(expected);
    } finally {
      await store.close();
    }
    const db = new Database(path.join(dir, DB_FILE_NAME));
    try {
      // Folded from the log once, then kept in the row.
      const row = db.prepare('SELECT route FROM runs WHERE id = ?').get('r-old') as { route: string };
      expect(JSON.parse(row.route).stops).toHaveLength(3);
    } finally {
      db.close();
    }
  });

  it('gives a sweep stored before its spend was kept (schema 10) what its stored runs cost and the cap its grid names', async () => {
    const old = new Database(path.join(dir, DB_FILE_NAME));
    migrate(old, 10);
    const grid = (costCapUsd?: number) =>
      JSON.stringify(
        SweepGridSchema.parse({
          configurations: [{ id: 'c', preset: 'codesmith' }],
          seeds: [1, 2],
          ...(costCapUsd ? { costCapUsd } : {}),
        }),
      );
    const insertSweep = old.prepare(
      "INSERT INTO sweeps (id, created_at, name, grid, status, total, done, elapsed_ms, runner, message) VALUES (?, ?, ?, ?, ?, 2, ?, 100, 'local', ?)",
    );
    insertSweep.run(
      's-cap',
      2,
      'capped',
      grid(0.5),
      'stopped',
      1,
      'cost cap: the sweep stopped before run 2 of 2',
    );
    insertSweep.run('s-plain', 1, 'plain', grid(), 'completed', 2, null);
    const insertRun = old.prepare(
      "INSERT INTO runs (id, created_at, config, status, sweep_id) VALUES (?, 1, ?, 'ended', ?)",
    );
    const insertMetrics = old.prepare(
      'INSERT INTO sweep_runs (sweep_id, job, run_id, metrics) VALUES (?, ?, ?, ?)',
    );
    const stored: Array<[string, number, number]> = [
      ['s-cap', 0, 0.125],
      ['s-plain', 0, 0.25],
      ['s-plain', 1, 0.5],
    ];
    for (const [sweep, job, usd] of stored) {
      insertRun.run(`${sweep}-${job}`, JSON.stringify(sampleConfig()), sweep);
      insertMetrics.run(
        sweep,
        job,
        `${sweep}-${job}`,
        JSON.stringify({ job, run_id: `${sweep}-${job}`, usd }),
      );
    }
    old.close();

    const sweeps = createSqliteSweepStore({ dir });
    try {
      expect((await sweeps.getSweep('s-cap'))!.summary).toMatchObject({
        status: 'stopped',
        message: 'cost cap: the sweep stopped before run 2 of 2',
        spent_usd: 0.125,
        cost_cap_usd: 0.5,
      });
      const plain = (await sweeps.getSweep('s-plain'))!.summary;
      expect(plain.spent_usd).toBe(0.75);
      expect(plain).not.toHaveProperty('cost_cap_usd');
      // Lines were never kept before: none is made up.
      expect((await sweeps.listSweeps()).map((s) => s.notes)).toEqual([undefined, undefined]);
    } finally {
      await sweeps.close();
    }
  });
});
