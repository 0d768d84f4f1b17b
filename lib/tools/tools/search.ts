import { RE2JS } from 're2js';
import { z } from 'zod';
import type { Tool } from '../types';
import { fail, notFound, ok, resolvePath } from './tool-result';

export const DEFAULT_MAX_RESULTS = 50;
/** Longer matching lines are cut so one minified line cannot flood the result. */
const MAX_LINE_CHARS = 200;

const input = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe(
      'A regular expression in RE2 syntax (no lookaround or backreferences), or literal text, to look for line by line.',
    ),
  path: z.string().optional().describe('File or folder to search (default: the whole workspace).'),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe(`Most matches to return (default ${DEFAULT_MAX_RESULTS}).`),
});

/**
 * Compiles the pattern with RE2 (re2js): matching takes time linear in the line, whatever the
 * pattern, where a backtracking engine spent seconds on `(a+)+$` against 28 characters and
 * blocked every run on the server. Text that is not a regex at all is searched literally;
 * JavaScript-only syntax RE2 refuses (lookaround, backreferences) is an error that says so.
 */
type Compiled = { regex: RE2JS; note: string } | { error: string };

/**
 * Patterns already compiled: a sweep's model asks for the same few patterns run after run,
 * and an RE2JS program is immutable once built (every test makes its own matcher), so one
 * can serve every search. Bounded in count and pattern length.
 */
const compiled = new Map<string, Compiled>();
const MAX_COMPILED = 256;
const MAX_CACHED_PATTERN = 1_000;

function compile(pattern: string): Compiled {
  const hit = compiled.get(pattern);
  if (hit) return hit;
  const result = compileNew(pattern);
  if (pattern.length <= MAX_CACHED_PATTERN) {
    compiled.set(pattern, result);
    if (compiled.size > MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
  }
  return result;
}

function compileNew(pattern: string): Compiled {
  try {
    return { regex: RE2JS.compile(pattern), note: '' };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (isJsRegex(pattern)) {
      return {
        error:
          `Error: search uses a linear-time regex engine (RE2), which does not support this pattern (${why}). ` +
          'Lookahead, lookbehind and backreferences are not available: rewrite the pattern without them, or search for literal text.',
      };
    }
    return {
      regex: RE2JS.compile(RE2JS.quote(pattern)),
      note: `(Not a valid regular expression — ${why}; searched for it as literal text.)\n`,
    };
  }
}

/** Whether JavaScript would accept the pattern (compiling only: matching is what can run away). */
function isJsRegex(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** Finds lines matching a pattern: `file:line: text`, with a count of what was not shown. */
export const searchTool: Tool<z.infer<typeof input>> = {
  name: 'search',
  parallelSafe: true,
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
    const program = compile(pattern);
    if ('error' in program) return fail(program.error);
    const { regex, note } = program;
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
      return ok(
        `${note}No matches for /${regex.pattern()}/ in ${scope} (${files.length} files searched). Try a shorter or looser pattern.`,
      );
    }
    const header = `${note}${total} match${total === 1 ? '' : 'es'} for /${regex.pattern()}/ in ${scope}:`;
    const rest =
      total > hits.length
        ? `\n(${total - hits.length} more matches not shown: narrow the pattern or path, or raise max_results.)`
        : '';
    return ok(`${header}\n${hits.join('\n')}${rest}`);
  },
};
