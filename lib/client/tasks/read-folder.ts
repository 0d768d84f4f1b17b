import { TASK_LIMITS } from '@/lib/protocol/task-limits';

/** One file of a folder a person chose: its path with the folder's name first ("square/task.md"), its bytes. */
export interface ChosenFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * A chosen folder as POST /api/tasks takes it: its name (the task's id when task.json names
 * none, made lower-case with "-" for anything else) and each file's path inside it with its text.
 * A file that is not UTF-8 text, or a folder over the limits (TASK_LIMITS), is a problem naming it,
 * found before anything is sent; the server checks every rule again.
 */
export function folderUpload(
  chosen: readonly ChosenFile[],
): { ok: true; name: string; files: Record<string, string> } | { ok: false; problems: string[] } {
  if (chosen.length === 0) return { ok: false, problems: ['the folder is empty: choose a task folder'] };
  if (chosen.length > TASK_LIMITS.maxFiles)
    return {
      ok: false,
      problems: [
        `the folder holds ${chosen.length} files; a task folder may hold at most ${TASK_LIMITS.maxFiles}`,
      ],
    };
  const tops = new Set(chosen.map((f) => f.path.split('/')[0]!));
  if (tops.size !== 1 || chosen.some((f) => !f.path.includes('/')))
    return { ok: false, problems: ['choose one folder (its task.md at the top), not loose files'] };
  const folder = [...tops][0]!;
  const name =
    folder
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 64) || 'task';
  const problems: string[] = [];
  const files: Record<string, string> = {};
  let total = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (const file of chosen) {
    const inner = file.path.slice(folder.length + 1);
    total += file.bytes.length;
    if (file.bytes.length > TASK_LIMITS.maxFileBytes) {
      problems.push(
        `${inner}: ${file.bytes.length} bytes; a file may hold at most ${TASK_LIMITS.maxFileBytes}`,
      );
      continue;
    }
    try {
      files[inner] = decoder.decode(file.bytes);
    } catch {
      problems.push(`${inner}: not UTF-8 text; a task holds text files only`);
    }
  }
  if (total > TASK_LIMITS.maxTotalBytes)
    problems.push(
      `the files come to ${total} bytes; a task folder may hold at most ${TASK_LIMITS.maxTotalBytes}`,
    );
  return problems.length > 0 ? { ok: false, problems } : { ok: true, name, files };
}
