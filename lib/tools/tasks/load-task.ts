import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  TASK_LIMITS,
  TaskFileSchema,
  taskDirName,
  type TaskDirRef,
  type TaskFile,
  type TaskUploadRef,
} from '@/lib/protocol';
import { describeIssues } from '@/lib/protocol/describe-issues';
import { uploadedTaskDir } from '@/lib/store/data-dir';
import { nodeTestsCheck } from '../check/run-node-tests';
import type { Scenario } from '../scenario';

/**
 * A task folder (docs/tasks.md) read into a Scenario: the built-in scenarios are folders under
 * lib/tools/tasks/builtin/ read by this same code, and the CLI and sweep files name folders of one's own.
 *
 *   task.md      the task text
 *   workspace/   the starting files
 *   tests/       visible tests (node's test runner), in the workspace under task.json's testsDir
 *   hidden/      hidden tests: the verdict adds them beside testsDir (in .hidden-tests/), never the workspace
 *   task.json    optional: title, summary, policy, testsDir, test names, scorers, hints
 */

export class TaskFolderError extends Error {
  override readonly name = 'TaskFolderError';
}

/** A task folder's files: path inside the folder ("/"-separated) → text. */
export type TaskFiles = Record<string, string>;

/** Reads every file of a folder, held to TASK_LIMITS; a symlink, a non-UTF-8 file or a file over the limits is an error naming it. */
export function readTaskFiles(dir: string): TaskFiles {
  const root = resolve(dir);
  try {
    if (!lstatSync(root).isDirectory()) throw new TaskFolderError(`task folder ${dir}: not a folder`);
  } catch (error) {
    if (error instanceof TaskFolderError) throw error;
    throw new TaskFolderError(`task folder ${dir}: no such folder (a path relative to ${process.cwd()})`);
  }
  const files: TaskFiles = {};
  let total = 0;
  let count = 0;
  const walk = (abs: string, rel: string, depth: number): void => {
    if (depth > TASK_LIMITS.maxDepth)
      throw new TaskFolderError(
        `task folder ${dir}: ${rel} is nested deeper than ${TASK_LIMITS.maxDepth} folders`,
      );
    for (const entry of readdirSync(abs, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      const full = join(abs, entry.name);
      if (entry.isSymbolicLink())
        throw new TaskFolderError(`task folder ${dir}: ${path} is a symbolic link; copy the file in instead`);
      if (entry.isDirectory()) {
        walk(full, path, depth + 1);
        continue;
      }
      if (!entry.isFile()) throw new TaskFolderError(`task folder ${dir}: ${path} is not a regular file`);
      count += 1;
      if (count > TASK_LIMITS.maxFiles)
        throw new TaskFolderError(`task folder ${dir}: more than ${TASK_LIMITS.maxFiles} files`);
      const bytes = readFileSync(full);
      if (bytes.length > TASK_LIMITS.maxFileBytes)
        throw new TaskFolderError(
          `task folder ${dir}: ${path} is ${bytes.length} bytes; a file may hold at most ${TASK_LIMITS.maxFileBytes}`,
        );
      total += bytes.length;
      if (total > TASK_LIMITS.maxTotalBytes)
        throw new TaskFolderError(
          `task folder ${dir}: its files come to more than ${TASK_LIMITS.maxTotalBytes} bytes`,
        );
      files[path] = decodeText(bytes, `task folder ${dir}: ${path}`);
    }
  };
  walk(root, '', 0);
  return files;
}

function decodeText(bytes: Buffer, where: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new TaskFolderError(`${where} is not UTF-8 text; a task holds text files only`);
  }
}

/** The sha256 over a folder's files: each path, a NUL, its bytes as UTF-8, a NUL, in path order. */
export function hashTaskFiles(files: TaskFiles): string {
  const hash = createHash('sha256');
  for (const path of Object.keys(files).sort())
    hash.update(path).update('\0').update(files[path]!).update('\0');
  return hash.digest('hex');
}

/**
 * The folder's ref for a run's config (its path as given and the sha256 of its files, checked
 * as it loads) and the task's id; the folder is read and checked whole, so a bad one fails here.
 */
export function pinTaskDir(dir: string): { ref: TaskDirRef; id: string } {
  const files = readTaskFiles(dir);
  const task = taskFromFiles(files, { name: taskDirName(dir), where: `task folder ${dir}` });
  return { ref: { dir, sha256: hashTaskFiles(files) }, id: task.id };
}

/** The task a pinned ref names; a folder changed since it was pinned is refused. */
export function loadTaskDir(ref: TaskDirRef): Scenario {
  const files = readTaskFiles(ref.dir);
  const actual = hashTaskFiles(files);
  if (actual !== ref.sha256)
    throw new TaskFolderError(
      `task folder ${ref.dir} changed since the run was configured (sha256 ${actual.slice(0, 12)}…, the config says ${ref.sha256.slice(0, 12)}…): pin it again or restore the folder`,
    );
  return taskFromFiles(files, { name: taskDirName(ref.dir), where: `task folder ${ref.dir}` });
}

/**
 * A task folder's files as a request sent them (POST /api/tasks), held to the limits a folder on
 * disk is (TASK_LIMITS): each path relative, "/"-separated, without "." or ".." and at most
 * TASK_LIMITS.maxDepth folders deep. Returns the problems, each naming its file; empty: fine.
 */
export function checkTaskFiles(files: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  const paths = Object.keys(files);
  if (paths.length > TASK_LIMITS.maxFiles)
    return [`files: ${paths.length} files; a task folder may hold at most ${TASK_LIMITS.maxFiles}`];
  let total = 0;
  for (const path of paths) {
    const segments = path.split('/');
    if (
      path.includes('\\') ||
      path.includes('\0') ||
      segments.some((s) => s === '' || s === '.' || s === '..')
    )
      problems.push(
        `files.${path}: not a path inside the folder (relative, "/"-separated, no "." or ".." segment, e.g. "workspace/src/x.js")`,
      );
    else if (segments.length - 1 > TASK_LIMITS.maxDepth)
      problems.push(`files.${path}: nested deeper than ${TASK_LIMITS.maxDepth} folders`);
    const bytes = Buffer.byteLength(files[path]!);
    if (bytes > TASK_LIMITS.maxFileBytes)
      problems.push(`files.${path}: ${bytes} bytes; a file may hold at most ${TASK_LIMITS.maxFileBytes}`);
    total += bytes;
  }
  if (total > TASK_LIMITS.maxTotalBytes)
    problems.push(
      `files: ${total} bytes in all; a task folder may hold at most ${TASK_LIMITS.maxTotalBytes}`,
    );
  return problems;
}

/** The task an uploaded folder's ref names (POST /api/tasks kept its files by their hash); changed files are refused. */
export function loadUploadedTask(ref: TaskUploadRef, options: { name: string }): Scenario {
  const where = `uploaded task ${ref.id}`;
  let files: TaskFiles;
  try {
    files = readTaskFiles(uploadedTaskDir(ref.sha256));
  } catch (error) {
    if (error instanceof TaskFolderError)
      throw new TaskFolderError(
        `${where}: this server keeps no task with sha256 ${ref.sha256.slice(0, 12)}…; upload the folder again`,
      );
    throw error;
  }
  const actual = hashTaskFiles(files);
  if (actual !== ref.sha256)
    throw new TaskFolderError(
      `${where}: its kept files hash to ${actual.slice(0, 12)}…, not the ${ref.sha256.slice(0, 12)}… the config names; upload the folder again`,
    );
  return taskFromFiles(files, { name: options.name, where });
}

/** The parent of testsDir, where .hidden-tests/ goes (so a hidden test's relative requires resolve as from tests/). */
function hiddenDirOf(testsDir: string): string {
  const cut = testsDir.lastIndexOf('/');
  return cut < 0 ? '.hidden-tests' : `${testsDir.slice(0, cut)}/.hidden-tests`;
}

/**
 * A task from its files (path inside the folder → text): the one place a folder's layout and
 * task.json are read. `name` is the id when task.json names none; `where` starts each error.
 */
export function taskFromFiles(files: TaskFiles, options: { name: string; where: string }): Scenario {
  const { where } = options;
  const spec = parseTaskJson(files['task.json'], where);
  const text = files['task.md'];
  if (text === undefined) throw new TaskFolderError(`${where}: task.md is missing (the task text)`);
  const task = text.trim();
  if (task === '') throw new TaskFolderError(`${where}: task.md is empty`);
  const testsDir = spec.testsDir ?? 'tests';
  const hiddenDir = hiddenDirOf(testsDir);
  // The workspace's files in path order, then the tests in path order: the order a simulated
  // policy that picks among the files (long-output) sees them in.
  const workspace: Record<string, string> = {};
  const tests: string[] = [];
  const hiddenFiles: Record<string, string> = {};
  const paths = Object.keys(files).sort();
  for (const path of paths) {
    const [top, ...rest] = path.split('/');
    const inner = rest.join('/');
    if (top === 'workspace' && inner) workspace[inner] = files[path]!;
    else if (top === 'hidden' && inner) hiddenFiles[`${hiddenDir}/${inner}`] = files[path]!;
    else if (top !== 'tests' && path !== 'task.md' && path !== 'task.json')
      throw new TaskFolderError(
        `${where}: ${path} is outside the layout (task.md, task.json, workspace/, tests/, hidden/)`,
      );
  }
  for (const path of paths.filter((p) => p.startsWith('tests/') && p.length > 'tests/'.length)) {
    const inner = path.slice('tests/'.length);
    workspace[`${testsDir}/${inner}`] = files[path]!;
    tests.push(`${testsDir}/${inner}`);
  }
  for (const inner of Object.keys(files)
    .filter((p) => p.startsWith('workspace/'))
    .map((p) => p.slice('workspace/'.length))) {
    if (inner === testsDir || inner.startsWith(`${testsDir}/`))
      throw new TaskFolderError(
        `${where}: workspace/${inner} sits where tests/ is copied (${testsDir}/); put tests in tests/`,
      );
  }
  const runnable = tests.filter((p) => /\.(js|cjs)$/.test(p)).sort();
  if (runnable.length === 0)
    throw new TaskFolderError(`${where}: tests/ has no test file (.js or .cjs, run with node's test runner)`);
  const hiddenEntries = Object.keys(hiddenFiles).filter((p) => /\.(js|cjs)$/.test(p));
  const testNames = namesIn(spec.tests, testsDir, runnable, where, 'tests');
  const hiddenNames = namesIn(spec.hidden, hiddenDir, hiddenEntries, where, 'hidden');
  const hints = spec.hints ?? { read: [], summary: 'I could not find what to change.' };
  for (const [i, path] of hints.read.entries())
    if (workspace[path] === undefined)
      throw new TaskFolderError(`${where}: task.json: hints.read.${i}: "${path}" is not a workspace file`);
  if (hints.fix) {
    const target = workspace[hints.fix.path];
    if (target === undefined)
      throw new TaskFolderError(
        `${where}: task.json: hints.fix.path: "${hints.fix.path}" is not a workspace file`,
      );
    if (!target.includes(hints.fix.find))
      throw new TaskFolderError(`${where}: task.json: hints.fix.find: the text is not in ${hints.fix.path}`);
  }
  const id = spec.id ?? options.name;
  const title = spec.title ?? id;
  return {
    id,
    title,
    summary: spec.summary ?? title,
    task,
    files: workspace,
    check: nodeTestsCheck(runnable),
    checkLabel: runnable.join(', '),
    tests: runnable,
    testNames,
    hidden: { files: hiddenFiles, names: hiddenNames },
    policy: spec.policy ?? 'worker',
    hints: {
      read: hints.read,
      ...(hints.search !== undefined ? { search: hints.search } : {}),
      ...(hints.fix ? { fix: hints.fix } : {}),
      summary: hints.summary,
    },
    ...(spec.scorers && spec.scorers.length > 0 ? { scorers: spec.scorers } : {}),
  };
}

function parseTaskJson(text: string | undefined, where: string): TaskFile {
  if (text === undefined) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new TaskFolderError(`${where}: task.json is not JSON: ${(error as Error).message}`);
  }
  const parsed = TaskFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new TaskFolderError(`${where}: task.json: ${describeIssues(parsed.error).join('; ')}`);
  return parsed.data;
}

/** task.json's names for tests/ or hidden/, keyed by their path in the judged workspace; a name for a file that is not there is an error. */
function namesIn(
  names: Record<string, string[]> | undefined,
  dir: string,
  present: readonly string[],
  where: string,
  field: 'tests' | 'hidden',
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [file, list] of Object.entries(names ?? {})) {
    const path = `${dir}/${file}`;
    if (!present.includes(path))
      throw new TaskFolderError(
        `${where}: task.json: ${field}.${file}: there is no ${field}/${file} (.js or .cjs) in the folder`,
      );
    out[path] = list;
  }
  return out;
}
