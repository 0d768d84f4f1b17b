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
 * its uploader in room mode); its files in the store by their sha256, kept once, so any process
 * sharing the store can run the task, and copied to this process's data folder (tasks/<sha256>/),
 * where the task loader reads them and checks their hash.
 */
export interface TaskUploadStore {
  /** Keeps the files (unless files with this hash are kept already) and adds the upload. */
  saveTaskUpload(upload: SaveTaskUpload): Promise<UploadedTask>;
  getTaskUpload(id: string): Promise<UploadedTask | undefined>;
  /** The files kept under this sha256 (path inside the folder → text), as uploaded; undefined when none are. */
  readTaskFiles(sha256: string): Promise<Readonly<Record<string, string>> | undefined>;
  /** Every upload, newest first. */
  listTaskUploads(): Promise<UploadedTask[]>;
  close(): Promise<void>;
}
