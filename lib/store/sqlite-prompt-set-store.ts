import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { PromptSet, SavePromptSetBody } from '@/lib/protocol';
import type { PromptSetStore } from './prompt-set-store';
import { DB_FILE_NAME } from './sqlite-run-store';
import { migrate } from './sqlite-schema';

/** A prompt_sets row (the Postgres store reads the same). */
export interface PromptSetRow {
  name: string;
  version: number;
  created_at: number;
  system: string;
  task: string;
  tool_descriptions: string;
}

export function toPromptSet(row: PromptSetRow): PromptSet {
  return {
    name: row.name,
    version: row.version,
    created_at: new Date(row.created_at).toISOString(),
    system: row.system,
    task: row.task,
    toolDescriptions: JSON.parse(row.tool_descriptions) as Record<string, string>,
  };
}

/** Prompt sets on the run store's SQLite file (its own connection, as the sweep store). */
export function createSqlitePromptSetStore({
  dir,
  now = Date.now,
}: {
  dir: string;
  now?: () => number;
}): PromptSetStore {
  fs.mkdirSync(dir, { recursive: true });
  const db = new Database(path.join(dir, DB_FILE_NAME));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);

  const nextVersion = db.prepare<[string], { next: number }>(
    'SELECT COALESCE(MAX(version), 0) + 1 AS next FROM prompt_sets WHERE name = ?',
  );
  const insert = db.prepare(
    `INSERT INTO prompt_sets (name, version, created_at, system, task, tool_descriptions)
     VALUES (@name, @version, @created_at, @system, @task, @tool_descriptions)`,
  );
  const selectOne = db.prepare<[string, number], PromptSetRow>(
    'SELECT * FROM prompt_sets WHERE name = ? AND version = ?',
  );
  const selectAll = db.prepare<[], PromptSetRow>(
    'SELECT * FROM prompt_sets ORDER BY created_at DESC, name, version DESC',
  );

  // Reading the next version and writing it in one transaction: two saves never share a number.
  const save = db.transaction((body: SavePromptSetBody): PromptSet => {
    const row: PromptSetRow = {
      name: body.name,
      version: nextVersion.get(body.name)!.next,
      created_at: now(),
      system: body.system,
      task: body.task,
      tool_descriptions: JSON.stringify(body.toolDescriptions),
    };
    insert.run(row);
    return toPromptSet(row);
  });

  return {
    savePromptSet: async (body) => save.immediate(body),
    async getPromptSet(name, version) {
      const row = selectOne.get(name, version);
      return row ? toPromptSet(row) : undefined;
    },
    listPromptSets: async () => selectAll.all().map(toPromptSet),
    close: async () => {
      db.close();
    },
  };
}
