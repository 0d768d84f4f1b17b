import path from 'node:path';
import { serverEnv } from '@/lib/config/server-env';

/** The data folder: LOOP_LAB_DATA_DIR when set, else `.data/` in the project (git-ignored). */
export function dataDir(): string {
  return serverEnv().dataDir ?? path.join(process.cwd(), '.data');
}

/**
 * Where an uploaded task folder's files are kept: `tasks/<sha256>/` in the data folder, by the
 * sha256 of its files (lib/tools/tasks/load-task.ts hashTaskFiles), written once and never edited.
 */
export function uploadedTaskDir(sha256: string, dir: string = dataDir()): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a task's sha256: ${sha256}`);
  return path.join(dir, 'tasks', sha256);
}
