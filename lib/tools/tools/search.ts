import { z } from 'zod';
import type { Tool } from '../types';
import { notFound, ok, resolvePath } from './tool-result';

export const DEFAULT_MAX_RESULTS = 50;
/** Longer matching lines are cut so one minified line cannot flood the result. */
const MAX_LINE_CHARS = 200;

const input = z.strictObject({
  pattern: z.string().min(1).describe('A regular expression (or literal text) to look for, line by line.'),
  path: z.string().optional().describe('File or folder to search (default: the whole workspace).'),
  max_results: z.number().int().min(1).max(1000).optional().describe(`Most matches to return (default ${DEFAULT_MAX_RESULTS}).`),
});

/** Compiles the pattern as a regex; text that is not a valid regex is searched literally. */
function compile(pattern: string): { regex: RegExp; note: string } {
  try {
    return { regex: new RegExp(pattern), note: '' };
  } catch (error) {
    const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const why = error instanceof Error ? error.message : String(error);
    return { regex: new RegExp(escaped), note: `(Not a valid regular expression — ${why}; searched for it as literal text.)\n` };
  }
}

/** Finds lines matching a pattern: `file:line: text`, with a count of what was not shown. */
export const searchTool: Tool<z.infer<typeof input>> = {
  name: 'search',
  description:
    'Search file contents line by line for a regular expression or literal text. Returns file:line: text for each match.',
  input,
  run({ pattern, path = '', max_results = DEFAULT_MAX_RESULTS }, { workspace }) {
    const resolved = resolvePath(path);
    if ('error' in resolved) return resolved.error;
    const where = resolved.path;
    if (!workspace.exists(where)) return notFound({ workspace, path: where, what: 'path' });
    const files = workspace.isDir(where)
      ? workspace.paths().filter((p) => where === '' || p.startsWith(`${where}/`))
      : [where];
    const { regex, note } = compile(pattern);
    const hits: string[] = [];
    let total = 0;
    for (const file of files) {
      const lines = (workspace.read(file) ?? '').split('\n');
      lines.forEach((line, i) => {
        if (!regex.test(line)) return;
        total++;
        if (hits.length >= max_results) return;
        const text = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
        hits.push(`${file}:${i + 1}: ${text}`);
      });
    }
    const scope = where === '' ? 'the workspace' : where;
    if (total === 0) {
      return ok(`${note}No matches for /${regex.source}/ in ${scope} (${files.length} files searched). Try a shorter or looser pattern.`);
    }
    const header = `${note}${total} match${total === 1 ? '' : 'es'} for /${regex.source}/ in ${scope}:`;
    const rest =
      total > hits.length
        ? `\n(${total - hits.length} more matches not shown: narrow the pattern or path, or raise max_results.)`
        : '';
    return ok(`${header}\n${hits.join('\n')}${rest}`);
  },
};
