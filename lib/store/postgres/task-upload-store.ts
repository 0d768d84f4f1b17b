import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { UploadedTask } from '@/lib/protocol/http';
import { uploadedTaskDir } from '../data-dir';
import { keepFiles, parseTaskFiles, toUploadedTask, type UploadRow } from '../sqlite-task-upload-store';
import type { SaveTaskUpload, TaskUploadStore } from '../task-upload-store';
import { inTransaction } from './pool';

const COLUMNS = 'id, sha256, task_id, title, summary, files, bytes, hidden, created_at';

/**
 * Uploaded tasks on Postgres, as lib/store/sqlite-task-upload-store.ts: the rows and the files in
 * the database, so a process on any machine can run the task; the files copied to this process's
 * data folder's tasks/<sha256>/ (`dir`), where the task loader reads them.
 */
export function createPostgresTaskUploadStore({
  pool,
  dir,
  now = Date.now,
  release,
}: {
  pool: pg.Pool;
  dir: string;
  now?: () => number;
  release: () => Promise<void>;
}): TaskUploadStore {
  return {
    async saveTaskUpload(upload: SaveTaskUpload): Promise<UploadedTask> {
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
      await inTransaction(pool, async (client) => {
        await client.query(
          'INSERT INTO uploaded_task_files (sha256, files) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING',
          [upload.sha256, JSON.stringify(upload.files)],
        );
        await client.query(
          `INSERT INTO uploaded_tasks (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            row.id,
            row.sha256,
            row.task_id,
            row.title,
            row.summary,
            row.files,
            row.bytes,
            row.hidden,
            row.created_at,
          ],
        );
      });
      return toUploadedTask(row);
    },
    async getTaskUpload(id: string): Promise<UploadedTask | undefined> {
      const row = (await pool.query<UploadRow>(`SELECT ${COLUMNS} FROM uploaded_tasks WHERE id = $1`, [id]))
        .rows[0];
      return row ? toUploadedTask(row) : undefined;
    },
    async readTaskFiles(sha256: string): Promise<Readonly<Record<string, string>> | undefined> {
      const row = (
        await pool.query<{ files: string }>('SELECT files FROM uploaded_task_files WHERE sha256 = $1', [
          sha256,
        ])
      ).rows[0];
      return row ? parseTaskFiles(row.files) : undefined;
    },
    async listTaskUploads(): Promise<UploadedTask[]> {
      const rows = (
        await pool.query<UploadRow>(
          `SELECT ${COLUMNS} FROM uploaded_tasks ORDER BY created_at DESC, rowid DESC`,
        )
      ).rows;
      return rows.map(toUploadedTask);
    },
    close: release,
  };
}
