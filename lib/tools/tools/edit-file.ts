import { z } from 'zod';
import { findText } from '../find-text';
import { similarity } from '../similarity';
import type { Tool } from '../types';
import { fail, notFound, ok, resolvePath } from './tool-result';

const input = z.strictObject({
  path: z.string().min(1).describe('File to edit, relative to the workspace root.'),
  old_string: z.string().describe('Exact text to replace; must occur exactly once in the file.'),
  new_string: z.string().describe('Text to put in its place.'),
});

/** Lines of the file the closest-line hint looks at: a hint, not a search, so it stays cheap. */
export const MAX_HINT_LINES = 2000;
/** Occurrence line numbers listed when old_string is ambiguous. */
const MAX_LISTED_LINES = 20;

/** The file line most like the first non-blank line of old_string: where the model meant. */
function closestLine(content: string, oldString: string): { line: number; text: string } | undefined {
  const probe = firstNonBlankLine(oldString);
  if (!probe) return undefined;
  let best: { line: number; text: string; score: number } | undefined;
  content.split('\n', MAX_HINT_LINES).forEach((text, i) => {
    // Only scores that beat the best so far (and 0.3) are worth computing in full.
    const score = similarity(probe, text.trim(), Math.max(0.3, best?.score ?? 0));
    if (!best || score > best.score) best = { line: i + 1, text, score };
  });
  return best && best.score > 0.3 ? best : undefined;
}

function firstNonBlankLine(text: string): string | undefined {
  for (let start = 0; start <= text.length;) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end).trim();
    if (line !== '') return line;
    if (end < 0) return undefined;
    start = end + 1;
  }
  return undefined;
}

function noMatch(file: string, content: string, oldString: string): string {
  const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
  const parts = [`Error: old_string was not found in ${file}.`];
  if (findText({ text: squash(content), needle: squash(oldString), limit: 1 }).length > 0) {
    parts.push(
      'It does match if whitespace is ignored: copy the exact indentation and line breaks from read_file.',
    );
  }
  // [ \t]*, not \s*: \s also eats newlines, and a run of blank lines made this quadratic.
  if (/^[ \t]*\d+\t/m.test(oldString)) parts.push('Leave out the line-number prefixes that read_file adds.');
  const near = closestLine(content, oldString);
  if (near) parts.push(`Closest line is ${near.line}: ${JSON.stringify(near.text)}`);
  parts.push('Read the file again and copy old_string exactly.');
  return parts.join(' ');
}

/** Occurrences counted before the message says "more than". */
const MAX_COUNTED = 1000;

/**
 * Line numbers (1-based) of the first occurrences and how many there are, in one pass: a
 * one-letter old_string in a million-character file must not cost a scan per occurrence.
 */
function occurrences(
  content: string,
  needle: string,
): { count: number; first: number; lines: number[]; more: boolean } {
  const found = findText({ text: content, needle, limit: MAX_COUNTED + 1 });
  const lines: number[] = [];
  let count = 0;
  let line = 1;
  let nextNewline = content.indexOf('\n');
  for (const at of found) {
    if (count === MAX_COUNTED) break;
    while (nextNewline >= 0 && nextNewline < at) {
      line++;
      nextNewline = content.indexOf('\n', nextNewline + 1);
    }
    count++;
    if (lines.length < MAX_LISTED_LINES) lines.push(line);
  }
  return { count, first: found[0] ?? -1, lines, more: found.length > MAX_COUNTED };
}

/** Replaces one exact, unique occurrence: an ambiguous or stale edit fails loudly instead. */
export const editFileTool: Tool<z.infer<typeof input>> = {
  name: 'edit_file',
  mutates: true,
  description:
    'Replace old_string with new_string in a file. old_string must match the file exactly (including whitespace) and occur exactly once.',
  input,
  run({ path, old_string, new_string }, { workspace }) {
    const resolved = resolvePath(path);
    if ('error' in resolved) return resolved.error;
    const file = resolved.path;
    const content = workspace.read(file);
    if (content === undefined) return notFound({ workspace, path: file });
    if (old_string === '')
      return fail('Error: old_string is empty. To create or replace a whole file use write_file.');
    if (old_string === new_string)
      return fail('Error: old_string and new_string are identical; nothing would change.');
    const { count, first, lines, more } = occurrences(content, old_string);
    if (count === 0) return fail(noMatch(file, content, old_string));
    if (count > 1) {
      const listed = count > lines.length ? `${lines.join(', ')}, …` : lines.join(', ');
      return fail(
        `Error: old_string occurs ${more ? `more than ${count}` : count} times in ${file} (lines ${listed}). ` +
          'Include more surrounding lines so it matches exactly once.',
      );
    }
    const updated = content.slice(0, first) + new_string + content.slice(first + old_string.length);
    workspace.write(file, updated);
    const start = lines[0]!;
    const shown = updated
      .split('\n')
      .slice(start - 1, start - 1 + Math.max(1, new_string.split('\n').length));
    const snippet = shown.map((l, i) => `${start + i}\t${l}`).join('\n');
    return ok(`Edited ${file}: replaced 1 occurrence at line ${start}. Now:\n${snippet}`);
  },
};
