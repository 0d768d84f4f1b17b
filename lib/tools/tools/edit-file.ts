import { z } from 'zod';
import { similarity } from '../paths';
import type { Tool } from '../types';
import { fail, notFound, ok, resolvePath } from './tool-result';

const input = z.strictObject({
  path: z.string().min(1).describe('File to edit, relative to the workspace root.'),
  old_string: z.string().describe('Exact text to replace; must occur exactly once in the file.'),
  new_string: z.string().describe('Text to put in its place.'),
});

/** The file line most like the first non-blank line of old_string: where the model meant. */
function closestLine(content: string, oldString: string): { line: number; text: string } | undefined {
  const probe = oldString.split('\n').find((l) => l.trim() !== '')?.trim();
  if (!probe) return undefined;
  let best: { line: number; text: string; score: number } | undefined;
  content.split('\n').forEach((text, i) => {
    const score = similarity(probe, text.trim());
    if (!best || score > best.score) best = { line: i + 1, text, score };
  });
  return best && best.score > 0.3 ? best : undefined;
}

function lineOf(content: string, index: number): number {
  return content.slice(0, index).split('\n').length;
}

function noMatch(file: string, content: string, oldString: string): string {
  const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
  const parts = [`Error: old_string was not found in ${file}.`];
  if (squash(content).includes(squash(oldString))) {
    parts.push('It does match if whitespace is ignored: copy the exact indentation and line breaks from read_file.');
  }
  if (/^\s*\d+\t/m.test(oldString)) parts.push('Leave out the line-number prefixes that read_file adds.');
  const near = closestLine(content, oldString);
  if (near) parts.push(`Closest line is ${near.line}: ${JSON.stringify(near.text)}`);
  parts.push('Read the file again and copy old_string exactly.');
  return parts.join(' ');
}

/** Replaces one exact, unique occurrence: an ambiguous or stale edit fails loudly instead. */
export const editFileTool: Tool<z.infer<typeof input>> = {
  name: 'edit_file',
  description:
    'Replace old_string with new_string in a file. old_string must match the file exactly (including whitespace) and occur exactly once.',
  input,
  run({ path, old_string, new_string }, { workspace }) {
    const resolved = resolvePath(path);
    if ('error' in resolved) return resolved.error;
    const file = resolved.path;
    const content = workspace.read(file);
    if (content === undefined) return notFound({ workspace, path: file });
    if (old_string === '') return fail('Error: old_string is empty. To create or replace a whole file use write_file.');
    if (old_string === new_string) return fail('Error: old_string and new_string are identical; nothing would change.');
    const first = content.indexOf(old_string);
    if (first < 0) return fail(noMatch(file, content, old_string));
    const lines: number[] = [];
    for (let at = first; at >= 0; at = content.indexOf(old_string, at + 1)) lines.push(lineOf(content, at));
    if (lines.length > 1) {
      return fail(
        `Error: old_string occurs ${lines.length} times in ${file} (lines ${lines.join(', ')}). ` +
          'Include more surrounding lines so it matches exactly once.',
      );
    }
    const updated = content.slice(0, first) + new_string + content.slice(first + old_string.length);
    workspace.write(file, updated);
    const start = lines[0]!;
    const shown = updated.split('\n').slice(start - 1, start - 1 + Math.max(1, new_string.split('\n').length));
    const snippet = shown.map((l, i) => `${start + i}\t${l}`).join('\n');
    return ok(`Edited ${file}: replaced 1 occurrence at line ${start}. Now:\n${snippet}`);
  },
};
