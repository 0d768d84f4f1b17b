import 'server-only';
import type { RunConfig } from '@/lib/protocol';
import { UploadTaskBodySchema, type TaskList, type UploadedTask } from '@/lib/protocol/http';
import { getTaskUploadStore, getVisitorStore } from '@/lib/store';
import { checkTaskFiles, hashTaskFiles, listScenarios, taskFromFiles, TaskFolderError } from '@/lib/tools';
import { HttpError } from './http-error';
import { knownKeysRedactor } from './request-keys';
import { claimFor, ownRows } from './room-ownership';

/**
 * Task folders uploaded to the playground (docs/tasks.md): checked by the loader a folder on
 * disk goes through, kept by the sha256 of their files, listed beside the built-in tasks, and
 * run by a config that names the upload (`taskUpload`). In room mode each is its uploader's.
 */

/** The most POST /api/tasks reads: the files' limit (TASK_LIMITS.maxTotalBytes) and room for JSON's quoting. */
export const MAX_TASK_UPLOAD_BYTES = 12 * 1024 * 1024;

/**
 * Checks an upload and keeps it: 400 with each problem naming its field or file (a path, a
 * limit, the layout, task.json's field), else the stored upload. Every key the server knows is
 * taken out of the files first, as from a prompt set.
 */
export async function uploadTask(visitor: string | null, raw: unknown): Promise<UploadedTask> {
  const body = UploadTaskBodySchema.parse(knownKeysRedactor().value(raw), { reportInput: true });
  const problems = checkTaskFiles(body.files);
  if (problems.length > 0) throw new HttpError(400, 'The task folder cannot be kept', problems);
  let task;
  try {
    task = taskFromFiles(body.files, { name: body.name, where: `task folder ${body.name}` });
  } catch (error) {
    if (error instanceof TaskFolderError)
      throw new HttpError(400, 'The task folder is not a task', [error.message]);
    throw error;
  }
  const saved = await getTaskUploadStore().saveTaskUpload({
    sha256: hashTaskFiles(body.files),
    files: body.files,
    task_id: task.id,
    title: task.title,
    summary: task.summary,
    hidden: Object.keys(task.hidden.files).length,
  });
  await claimFor(visitor, 'task', saved.id);
  return saved;
}

/** GET /api/tasks: the built-in tasks, then the visitor's uploads (everyone's outside room mode), newest first. */
export async function taskList(visitor: string | null): Promise<TaskList> {
  return {
    builtin: listScenarios().map((s) => ({
      id: s.id,
      title: s.title,
      summary: s.summary,
      hidden: Object.keys(s.hidden.files).length,
    })),
    uploaded: await ownRows(visitor, 'task', await getTaskUploadStore().listTaskUploads(), (t) => t.id),
  };
}

/**
 * A run config's uploaded task, checked for this visitor: the upload is theirs (another's reads
 * as missing), its files are the ones the config pins, and the config's scenario is its id.
 * Returns the problem lines (empty: fine, or no upload named).
 */
export async function checkTaskUpload(visitor: string | null, config: RunConfig): Promise<string[]> {
  const ref = config.taskUpload;
  if (!ref) return [];
  const upload = await getTaskUploadStore().getTaskUpload(ref.id);
  const theirs =
    upload && (visitor === null || (await getVisitorStore().visitorOf('task', ref.id)) === visitor);
  if (!upload || !theirs)
    return [`taskUpload.id: no uploaded task "${ref.id}"; GET /api/tasks lists them (upload one on /tasks)`];
  const problems: string[] = [];
  if (upload.sha256 !== ref.sha256)
    problems.push(
      `taskUpload.sha256: the upload "${ref.id}" holds files with sha256 ${upload.sha256}, not ${ref.sha256}`,
    );
  if (config.scenario !== upload.task_id)
    problems.push(
      `scenario: a run of the upload "${ref.id}" names its task "${upload.task_id}", not "${config.scenario}"`,
    );
  return problems;
}
