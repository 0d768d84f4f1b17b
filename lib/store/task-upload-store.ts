import type { UploadedTask } from '@/lib/protocol/http';

/** An upload to keep: its files (path inside the folder → text), their sha256, and what the tasks page lists. */
export interface SaveTaskUpload {
  sha256: string;
  files: Readonly<Record<string, string>>;
  task_id: string;
  title: string;
  summary: string;
  hidden: number;
}

/**
 * Task folders uploaded to the playground: each upload a row (its id, its task's id and title,
 * its uploader in room mode), its files in the data folder's tasks/<sha256>/, written once.
 */
export interface TaskUploadStore {
  /** Keeps the files (unless a folder with this hash is kept already) and adds the upload. */
  saveTaskUpload(upload: SaveTaskUpload): Promise<UploadedTask>;
  getTaskUpload(id: string): Promise<UploadedTask | undefined>;
  /** Every upload, newest first. */
  listTaskUploads(): Promise<UploadedTask[]>;
  close(): Promise<void>;
}
