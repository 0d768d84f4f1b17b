import 'server-only';
import fs from 'node:fs';
import type { RunConfig } from '@/lib/protocol';
import { dataDir, keepFiles, uploadedTaskDir, type TaskUploadStore } from '@/lib/store';

/**
 * Copies the uploaded task a run's config names from the store into this process's data folder
 * (tasks/<sha256>/), where the run's task loader reads it and checks that its files still hash
 * to the sha256 the config pins (lib/tools/tasks/load-task.ts loadUploadedTask). A process on
 * another machine than the upload's thus runs it from the shared store. Nothing to copy (no
 * upload named, the folder here already) is a no-op; files the store does not hold, or a copy
 * that fails, are left to the loader, which ends the run saying what is missing.
 */
export async function copyUploadedTask(
  config: RunConfig,
  { store, dir = dataDir() }: { store: TaskUploadStore; dir?: string },
): Promise<void> {
  const ref = config.taskUpload;
  if (!ref) return;
  try {
    const target = uploadedTaskDir(ref.sha256, dir);
    if (fs.existsSync(target)) return;
    const files = await store.readTaskFiles(ref.sha256);
    if (files) keepFiles(target, files);
  } catch (error) {
    console.error(
      `[loop-lab] the uploaded task ${ref.id} was not copied from the store: ${(error as Error).message}`,
    );
  }
}
