/**
 * What a task folder may hold (docs/tasks.md): counted over every file, task.json and task.md
 * included. Zod-free, so the tasks page checks a chosen folder against it before sending it.
 */
export const TASK_LIMITS = {
  /** Files in the whole folder. */
  maxFiles: 2_000,
  /** Bytes of one file (the largest built-in file, huge-log's log, is 160 kB). */
  maxFileBytes: 1_000_000,
  /** Bytes of every file together. */
  maxTotalBytes: 8_000_000,
  /** Folders deep below the task folder. */
  maxDepth: 12,
} as const;
