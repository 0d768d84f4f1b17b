import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleConfig } from './sample-run.testkit';
import { DB_FILE_NAME } from './sqlite-run-store';
import { migrate, SCHEMA_VERSION } from './sqlite-schema';
import { createSqliteVisitorStore } from './sqlite-visitor-store';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loop-lab-visitors-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

// What the visitor store records is its contract, run on every backend
// (lib/store/contract/room-stores.testkit.ts); this is SQLite's upgrade of an older file.
describe('room mode ownership in the store', () => {
  it("opens a database stored before visitors were kept: its rows are nobody's", async () => {
    const old = new Database(path.join(dir, DB_FILE_NAME));
    // Before the visitors' migration (the wire's and the share links' came after it).
    migrate(old, SCHEMA_VERSION - 3);
    old
      .prepare("INSERT INTO runs (id, created_at, config) VALUES ('r', 1, ?)")
      .run(JSON.stringify(sampleConfig()));
    old.close();
    const visitors = createSqliteVisitorStore({ dir });
    try {
      expect(await visitors.visitorOf('run', 'r')).toBeNull();
      await visitors.claim('run', 'r', 'A');
      expect(await visitors.runIdsOf('A', 5)).toEqual(['r']);
    } finally {
      await visitors.close();
    }
  });
});
