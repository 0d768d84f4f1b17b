import { z } from 'zod';
import { TaskUploadRefSchema } from '../config';

/**
 * POST /api/tasks: a task folder (docs/tasks.md) as its files, each path inside the folder
 * ("/"-separated: task.md, workspace/…, tests/…, hidden/…, task.json) and its text. The browser
 * reads a chosen folder into this; the server checks the paths, the limits (TASK_LIMITS) and the
 * layout with the same loader as a folder on disk.
 */
export const UploadTaskBodySchema = z
  .object({
    /** The folder's name: the task's id when its task.json names none. */
    name: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9-]{0,63}$/,
        'lower-case letters, digits and "-", at most 64 (the folder\'s name, used as the task\'s id when task.json gives none)',
      ),
    files: z.record(z.string().min(1).max(500), z.string()),
  })
  .strict();
export type UploadTaskBody = z.infer<typeof UploadTaskBodySchema>;

/** A task folder uploaded to the playground, as the tasks page lists it. */
export const UploadedTaskSchema = TaskUploadRefSchema.extend({
  /** The task's id (task.json's, else the folder's name): the scenario a run of it names. */
  task_id: z.string(),
  title: z.string(),
  summary: z.string(),
  /** The folder's files and their bytes together. */
  files: z.number().int(),
  bytes: z.number().int(),
  /** Hidden tests the verdict runs (files under hidden/). */
  hidden: z.number().int(),
  /** ISO 8601. */
  created_at: z.string(),
}).strict();
export type UploadedTask = z.infer<typeof UploadedTaskSchema>;

/** A built-in task (lib/tools/tasks/builtin), as the tasks page lists it. */
export const BuiltinTaskSchema = z
  .object({ id: z.string(), title: z.string(), summary: z.string(), hidden: z.number().int() })
  .strict();
export type BuiltinTask = z.infer<typeof BuiltinTaskSchema>;

/** GET /api/tasks: the built-in tasks, and the uploaded ones (in room mode: the visitor's own), newest first. */
export const TaskListSchema = z
  .object({ builtin: z.array(BuiltinTaskSchema), uploaded: z.array(UploadedTaskSchema) })
  .strict();
export type TaskList = z.infer<typeof TaskListSchema>;
