import { inBothDialects } from './migration-dialects';

/**
 * The store's schema migrations, for both backends: SQLite (the embedded default,
 * lib/store/sqlite-schema.ts) and Postgres (when DATABASE_URL is set, lib/store/postgres/schema.ts).
 * Each backend applies them in order and records how many ran (SQLite in `PRAGMA user_version`,
 * Postgres in its `loop_lab_schema` table), so migration N is the same step on both.
 *
 * An entry is one SQL text both accept (`sql`), or the two dialects side by side (`sqlite`,
 * `postgres`) where they differ: Postgres needs BIGINT for epoch-ms columns (its INTEGER is 32
 * bits), DOUBLE PRECISION for SQLite's REAL (its REAL is 32 bits), `::jsonb ->>` for
 * `json_extract`, and has no WITHOUT ROWID. An entry whose dialects differ only in those words is
 * written once (inBothDialects, lib/store/migration-dialects.ts), spelled out to the same two texts.
 * The SQLite texts are the ones that shipped; the Postgres texts end at the same tables and
 * columns (lib/store/postgres/schema.test.ts checks), plus a `rowid` identity column on the tables
 * SQLite gives an implicit one that the queries order by (runs, sweeps, lesson_plays,
 * uploaded_tasks).
 *
 * Append a new entry to change the schema, both dialects at once; never edit one that has shipped.
 */
export type Migration = { sql: string } | { sqlite: string; postgres: string };

export const MIGRATIONS: readonly Migration[] = [
  // 1. Runs, each a summary row, and their events.
  inBothDialects(
    (w) => `
  CREATE TABLE runs (
    id TEXT PRIMARY KEY,${w.rowid}
    created_at ${w.big} NOT NULL,
    config TEXT NOT NULL,
    imported INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'running',
    terminate_reason TEXT,
    complete INTEGER,
    vendor TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    scenario TEXT NOT NULL DEFAULT '',
    iterations INTEGER NOT NULL DEFAULT 0,
    input_tokens ${w.big} NOT NULL DEFAULT 0,
    output_tokens ${w.big} NOT NULL DEFAULT 0,
    cost_usd ${w.real} NOT NULL DEFAULT 0,
    duration_ms ${w.real} NOT NULL DEFAULT 0,
    event_count INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX runs_by_created ON runs (created_at DESC);
  CREATE TABLE events (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    ts ${w.real} NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
  )${w.withoutRowid};
  `,
  ),
  // 2.
  // Sweeps: a sweep's runs are ordinary runs carrying its id; each run's metrics
  // row is written in the same transaction as the run and its log.
  inBothDialects(
    (w) => `
  ALTER TABLE runs ADD COLUMN sweep_id TEXT;
  CREATE INDEX runs_by_sweep ON runs (sweep_id) WHERE sweep_id IS NOT NULL;
  CREATE TABLE sweeps (
    id TEXT PRIMARY KEY,${w.rowid}
    created_at ${w.big} NOT NULL,
    name TEXT NOT NULL,
    grid TEXT NOT NULL,
    status TEXT NOT NULL,
    total INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    elapsed_ms ${w.real} NOT NULL DEFAULT 0,
    runner TEXT NOT NULL,
    message TEXT
  );
  CREATE TABLE sweep_runs (
    sweep_id TEXT NOT NULL REFERENCES sweeps (id) ON DELETE CASCADE,
    job INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    metrics TEXT NOT NULL,
    PRIMARY KEY (sweep_id, job)
  )${w.withoutRowid};
  `,
  ),
  // 3.
  // Which open store wrote a run: at startup, runs left running by a process that
  // is gone are closed with a server_restart terminate.
  {
    sql: `
  ALTER TABLE runs ADD COLUMN owner TEXT;
  CREATE INDEX runs_running ON runs (status) WHERE status = 'running';
  `,
  },
  // 4.
  // The task verdict: the scenario's check on the final workspace, shown beside the
  // terminate reason in the run list.
  {
    sql: `
  ALTER TABLE runs ADD COLUMN verdict TEXT;
  `,
  },
  // 5.
  // The lab: named, versioned prompt sets, and the run's title in its summary row
  // (filled in for runs stored before, from their run_title event).
  inBothDialects(
    (w) => `
  CREATE TABLE prompt_sets (
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    created_at ${w.big} NOT NULL,
    system TEXT NOT NULL,
    task TEXT NOT NULL,
    tool_descriptions TEXT NOT NULL,
    PRIMARY KEY (name, version)
  )${w.withoutRowid};
  ALTER TABLE runs ADD COLUMN title TEXT;
  UPDATE runs SET title = (
    SELECT ${w.jsonField('body', 'title')} FROM events WHERE events.run_id = runs.id AND events.type = 'run_title' ORDER BY seq LIMIT 1
  );
  `,
  ),
  // 6.
  // Forks: a run started from another run's trajectory at a turn; the parent lists them.
  {
    sql: `
  ALTER TABLE runs ADD COLUMN forked_from TEXT;
  ALTER TABLE runs ADD COLUMN forked_at_turn INTEGER;
  CREATE INDEX runs_by_parent ON runs (forked_from) WHERE forked_from IS NOT NULL;
  `,
  },
  // 7.
  // The events table as an ordinary (rowid) table with a unique index on (run_id, seq): the
  // thread that stores a sweep's runs appends each event at the end of the table and a small
  // key to the index, instead of placing ~400-byte rows in key order inside one B-tree
  // (measured: ~0.2 ms less CPU to store a 130-event run; reading a run is ~0.03 ms slower).
  // Same columns, same uniqueness; the rows are copied run by run, in seq order. A Postgres table
  // is always a heap with its key in a separate index: its (run_id, seq) key only takes the name.
  {
    sqlite: `
  CREATE TABLE events_rowid (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    ts REAL NOT NULL,
    body TEXT NOT NULL
  );
  INSERT INTO events_rowid (run_id, seq, type, ts, body) SELECT run_id, seq, type, ts, body FROM events ORDER BY run_id, seq;
  DROP TABLE events;
  ALTER TABLE events_rowid RENAME TO events;
  CREATE UNIQUE INDEX events_by_run ON events (run_id, seq);
  `,
    postgres: `
  ALTER INDEX events_pkey RENAME TO events_by_run;
  `,
  },
  // 8.
  // Every vendor and model a run used, in order (lib/store/run-route.ts): kept up to date as
  // swaps, fallback models and a fork's start are appended. NULL for a run stored before: its
  // route is folded from its log the first time the row is read or appended to, then kept.
  {
    sql: `
  ALTER TABLE runs ADD COLUMN route TEXT;
  `,
  },
  // 9.
  // Which open store runs a sweep, as for runs: at startup, sweeps left running or queued by a
  // process that is gone are closed (a live CLI's or second server's are left alone), and a
  // closed sweep's `done` is the number of its stored runs (a crash left it behind them).
  {
    sql: `
  ALTER TABLE sweeps ADD COLUMN owner TEXT;
  UPDATE sweeps SET done = (SELECT count(*) FROM sweep_runs WHERE sweep_runs.sweep_id = sweeps.id)
    WHERE status NOT IN ('running', 'queued');
  `,
  },
  // 10.
  // Cassettes (lib/cassettes): a run's recorded traffic, saved from a run page or imported; the
  // file's JSON as it is downloaded, with what the list shows beside it.
  inBothDialects(
    (w) => `
  CREATE TABLE cassettes (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at ${w.big} NOT NULL,
    source_kind TEXT NOT NULL,
    vendor TEXT NOT NULL,
    model TEXT NOT NULL,
    exchanges INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    from_run TEXT,
    body TEXT NOT NULL
  );
  CREATE INDEX cassettes_by_time ON cassettes (created_at);
  `,
  ),
  // 11.
  // What a sweep spent against which cap, and its endpoints' lines (a 429's pause), kept with
  // the sweep so a reload or a restart shows what the live progress did. A sweep stored before
  // is given what its stored runs cost and the cap its grid names (its lines were never kept: none).
  {
    sqlite: `
  ALTER TABLE sweeps ADD COLUMN notes TEXT;
  ALTER TABLE sweeps ADD COLUMN spent_usd REAL NOT NULL DEFAULT 0;
  ALTER TABLE sweeps ADD COLUMN cost_cap_usd REAL;
  UPDATE sweeps SET
    spent_usd = (SELECT total(json_extract(metrics, '$.usd')) FROM sweep_runs WHERE sweep_runs.sweep_id = sweeps.id),
    cost_cap_usd = json_extract(grid, '$.costCapUsd');
  `,
    postgres: `
  ALTER TABLE sweeps ADD COLUMN notes TEXT;
  ALTER TABLE sweeps ADD COLUMN spent_usd DOUBLE PRECISION NOT NULL DEFAULT 0;
  ALTER TABLE sweeps ADD COLUMN cost_cap_usd DOUBLE PRECISION;
  UPDATE sweeps SET
    spent_usd = (SELECT COALESCE(SUM((metrics::jsonb ->> 'usd')::double precision ORDER BY job), 0) FROM sweep_runs WHERE sweep_runs.sweep_id = sweeps.id),
    cost_cap_usd = (grid::jsonb ->> 'costCapUsd')::double precision;
  `,
  },
  // 12.
  // Room mode (lib/server/room-session.ts): the visitor whose session made a run, sweep, cassette
  // or prompt set. NULL outside room mode and for everything stored before: a run of a sweep is
  // its sweep's visitor's (lib/store/sqlite-visitor-store.ts).
  {
    sql: `
  ALTER TABLE runs ADD COLUMN visitor TEXT;
  CREATE INDEX runs_by_visitor ON runs (visitor, created_at DESC) WHERE visitor IS NOT NULL;
  ALTER TABLE sweeps ADD COLUMN visitor TEXT;
  ALTER TABLE cassettes ADD COLUMN visitor TEXT;
  ALTER TABLE prompt_sets ADD COLUMN visitor TEXT;
  `,
  },
  // 13.
  // The wire of each request a served run made (lib/protocol/wire.ts): what its attempt cards
  // show, kept so they work after a restart; past the run's bound a request is kept by number
  // with the reason (`omitted`) and no body.
  {
    sql: `
  CREATE TABLE run_wire (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    body TEXT,
    omitted TEXT,
    PRIMARY KEY (run_id, n)
  );
  `,
  },
  // 14.
  // Room mode's share links and lesson plays (lib/store/sqlite-visitor-store.ts). A share link
  // is kept as the SHA-256 of its token, never the token; revoking keeps the row, marked. A
  // lesson play names its two sides' runs, so the teacher's board tallies the stored runs.
  inBothDialects(
    (w) => `
  CREATE TABLE run_shares (
    token_hash TEXT PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    created_at ${w.big} NOT NULL,
    revoked_at ${w.big}
  );
  CREATE INDEX run_shares_by_run ON run_shares (run_id);
  CREATE TABLE lesson_plays (
    slug TEXT NOT NULL,
    on_run TEXT NOT NULL,
    off_run TEXT NOT NULL,
    visitor TEXT,
    created_at ${w.big} NOT NULL,${w.rowid}
    PRIMARY KEY (on_run)
  );
  CREATE INDEX lesson_plays_by_slug ON lesson_plays (slug, created_at);
  `,
  ),
  // 15.
  // Task folders uploaded to the playground (lib/store/sqlite-task-upload-store.ts): the files
  // live in the data folder's tasks/<sha256>/; a row is one upload, its visitor's in room mode.
  inBothDialects(
    (w) => `
  CREATE TABLE uploaded_tasks (
    id TEXT PRIMARY KEY,${w.rowid}
    sha256 TEXT NOT NULL,
    task_id TEXT NOT NULL,
    title TEXT NOT NULL,
    summary TEXT NOT NULL,
    files INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    hidden INTEGER NOT NULL,
    created_at ${w.big} NOT NULL,
    visitor TEXT
  );
  `,
  ),
  // 16.
  // Each claim of a run (its creation, a worker's takeover, a restart's claim) raises its lease,
  // and a write that names an older lease is refused: a process stalled past its hold on a run
  // cannot write into the log of the one that took the run over.
  { sql: `ALTER TABLE runs ADD COLUMN lease INTEGER NOT NULL DEFAULT 0;` },
  // 17.
  // What a run on any machine sharing the store needs: an uploaded task's files, by the sha256
  // they hash to, kept once however often they are uploaded (the data folder's tasks/<sha256>/
  // is then each process's copy); and each run's model traffic as a cassette keeps it (requests
  // beneath the fault wrapper, redacted with the run's keys as recorded), so "Save as cassette"
  // works for a run any process executed. Past the run's bound a request is kept by number with
  // no body: the cassette says it was cut.
  {
    sql: `
  CREATE TABLE uploaded_task_files (
    sha256 TEXT PRIMARY KEY,
    files TEXT NOT NULL
  );
  CREATE TABLE run_traffic (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    body TEXT,
    PRIMARY KEY (run_id, n)
  );
  `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Migration `m`'s SQL for one backend. */
export function migrationSql(m: Migration, dialect: 'sqlite' | 'postgres'): string {
  return 'sql' in m ? m.sql : m[dialect];
}
