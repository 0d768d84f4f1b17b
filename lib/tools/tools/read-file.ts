import { z } from 'zod';
import type { Tool } from '../types';
import { countLines } from './list-files';
import { fail, notFound, ok, resolvePath } from './tool-result';

/** Lines returned when no limit is given: enough for any source file, not for a big log. */
export const DEFAULT_READ_LIMIT = 2000;

const input = z.strictObject({
  path: z.string().min(1).describe('File to read, relative to the workspace root.'),
  offset: z.number().int().min(1).optional().describe('First line to return, 1-based (default 1).'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`How many lines to return (default ${DEFAULT_READ_LIMIT}).`),
});

/**
 * Reads a file by lines, numbered, with a header saying which lines of how many — so the
 * model always knows whether it has seen the whole file and where to continue.
 */
export const readFileTool: Tool<z.infer<typeof input>> = {
  name: 'read_file',
  parallelSafe: true,
  description:
    'Read a text file as numbered lines. Use offset (1-based line) and limit to read part of a large file.',
  input,
  run({ path, offset = 1, limit = DEFAULT_READ_LIMIT }, { workspace }) {
    const resolved = resolvePath(path);
    if ('error' in resolved) return resolved.error;
    const file = resolved.path;
    if (workspace.isDir(file)) {
      const children = workspace.list(file);
      return fail(
        `Error: "${file || '.'}" is a folder, not a file. It contains: ${children.join(', ') || '(nothing)'}. ` +
          'Call read_file with one of those paths.',
      );
    }
    const content = workspace.read(file);
    if (content === undefined) return notFound({ workspace, path: file });
    const total = countLines(content);
    if (total === 0) return ok(`${file} is empty (0 lines).`);
    if (offset > total) {
      return fail(
        `Error: offset ${offset} is past the end of ${file}, which has ${total} lines. Use an offset from 1 to ${total}.`,
      );
    }
    const lines = content.split('\n').slice(offset - 1, Math.min(total, offset - 1 + limit));
    const last = offset + lines.length - 1;
    const body = lines.map((line, i) => `${offset + i}\t${line}`).join('\n');
    const more =
      last < total
        ? `\n(${total - last} more lines: call read_file with offset ${last + 1} to continue.)`
        : '';
    return ok(`${file} — lines ${offset}–${last} of ${total}\n${body}${more}`);
  },
};
