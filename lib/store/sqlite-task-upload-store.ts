import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { UploadedTask } from '@/lib/protocol/http';
import { uploadedTaskDir } from './data-dir';
import { DB_FILE_NAME } from './sqlite-run-store';
import { migrate } from './sqlite-schema';
import type { TaskUploadStore } from './task-upload-store';

/** An uploaded_tasks row (the Postgres store reads the same). */
export interface UploadRow {
  id: string;
  sha256: string;
  task_id: string;
  title: string;
  summary: string;
  files: number;
  bytes: number;
  hidden: number;
  created_at: number;
}

export function toUploadedTask(row: UploadRow): UploadedTask {
  return {
    id: row.id,
    sha256: row.sha256,
    task_id: row.task_id,
    title: row.title,
    summary: row.summary,
    files: row.files,
    bytes: row.bytes,
    hidden: row.hidden,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/**
 * Writes a task's files under `target`, unless it exists: into a fresh folder beside it first,
 * renamed into place whole, so a reader never sees half a folder. Every path was checked as
 * relative, without "." or ".." (lib/tools/tasks/load-task.ts checkTaskFiles), before it got here.
 */
export function keepFiles(target: string, files: Readonly<Record<string, string>>): void {
  if (fs.existsSync(target)) return;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial-${randomBytes(6).toString('hex')}`;
  try {
    for (const [file, text] of Object.entries(files)) {
      const full = path.join(partial, ...file.split('/'));
      if (!full.startsWith(partial + path.sep)) throw new Error(`a task file outside its folder: ${file}`);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, text);
    }
    try {
      fs.renameSync(partial, target);
    } catch (error) {
      // Another upload of the same files got there first: theirs are these.
      if (!fs.existsSync(target)) throw error;
    }
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
}

/** An uploaded_task_files row's files, as saved (the Postgres store reads the same). */
export function parseTaskFiles(json: string): Readonly<Record<string, string>> {
  return JSON.parse(json) as Record<string, string>;
}

/** Uploaded tasks on the run store's SQLite file (its own connection, as the prompt sets), their files in it and copied beside it. */
export function createSqliteTaskUploadStore({
  dir,
  now = Date.now,
}: {
  dir: string;
  now?: () => number;
}): TaskUploadStore {
  fs.mkdirSync(dir, { recursive: true });
  const db = new Database(path.join(dir, DB_FILE_NAME));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);

  const insert = db.prepare(
    `INSERT INTO uploaded_tasks (id, sha256, task_id, title, summary, files, bytes, hidden, created_at)
     VALUES (@id, @sha256, @task_id, @title, @summary, @files, @bytes, @hidden, @created_at)`,
  );
  const insertFiles = db.prepare(
    'INSERT INTO uploaded_task_files (sha256, files) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING',
  );
  const selectFiles = db.prepare<[string], { files: string }>(
    'SELECT files FROM uploaded_task_files WHERE sha256 = ?',
  );
  const save = db.transaction((row: UploadRow, files: Readonly<Record<string, string>>) => {
    insertFiles.run(row.sha256, JSON.stringify(files));
    insert.run(row);
  });
  const selectOne = db.prepare<[string], UploadRow>('SELECT * FROM uploaded_tasks WHERE id = ?');
  const selectAll = db.prepare<[], UploadRow>(
    'SELECT * FROM uploaded_tasks ORDER BY created_at DESC, rowid DESC',
  );

  return {
    async saveTaskUpload(upload) {
      keepFiles(uploadedTaskDir(upload.sha256, dir), upload.files);
      const texts = Object.values(upload.files);
      const row: UploadRow = {
        id: `task-${randomBytes(8).toString('hex')}`,
        sha256: upload.sha256,
        task_id: upload.task_id,
        title: upload.title,
        summary: upload.summary,
        files: texts.length,
        bytes: texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0),
        hidden: upload.hidden,
        created_at: now(),
      };
      save(row, upload.files);
      return toUploadedTask(row);
    },
    async getTaskUpload(id) {
      const row = selectOne.get(id);
      return row ? toUploadedTask(row) : undefined;
    },
    async readTaskFiles(sha256) {
      const row = selectFiles.get(sha256);
      return row ? parseTaskFiles(row.files) : undefined;
    },
    listTaskUploads: async () => selectAll.all().map(toUploadedTask),
    close: async () => {
      db.close();
    },
  };
}
