/**
 * Finds the repo paths that comments and docs cite, so a test can say which of them no longer exist.
 *
 * A citation is a path that starts at one of the repo's top folders (`lib/engine/run-loop.ts`,
 * `docs/`, `app/api/runs/[id]/route.ts`), written in a comment of a source file or anywhere in a
 * Markdown doc, plus a Markdown link's relative target. Only comments are read in source files:
 * a path in a string literal is a runtime path (a workspace file, a route), not a citation. A path
 * glued to what comes before it (`@anthropic-ai/sdk/lib/…`, a URL, `node_modules/…`) is someone
 * else's, and a pattern (`lib/**\/*.test.ts`, `lib/<room>/`) is kept to the part before its first
 * wildcard or placeholder.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The repo's top folders a citation starts at. */
const TOP = ['lib', 'app', 'components', 'docs', 'e2e', 'scripts', 'public', 'cassettes', '.ci'];

/** Folders whose source files are read for comments (the top-level config files are read too). */
const SOURCE_ROOTS = ['lib', 'app', 'components', 'e2e', 'scripts', '.ci'];

const SKIP_DIRS = new Set([
  'node_modules',
  '.next',
  '.git',
  'test-reports',
  'test-results',
  'playwright-report',
]);

/** Folders whose files are not read for citations: a built-in task's files are the task's own words (its paths are its workspace's). */
const SKIP_PATHS = new Set(['lib/tools/tasks/builtin']);

const CODE_EXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;

export interface Citation {
  /** The file that cites, repo-relative. */
  file: string;
  /** 1-based line of the citation. */
  line: number;
  /** The cited path, repo-relative as written (a trailing slash kept). */
  cited: string;
}

/**
 * A path starting at a top folder, not glued to a word, a dot, a slash, `@` or `-` before it. A
 * path segment may hold Next's `[id]` and `(group)` folders; a trailing dot or comma is prose.
 */
const PATH_RE = new RegExp(
  `(?<![\\w@./\\-~])(?:${TOP.map((t) => t.replace('.', '\\.')).join('|')})/(?:[\\w.\\-/]|\\[[\\w.\\-]+\\]|\\([\\w.\\-]+\\))*`,
  'g',
);

/**
 * A file named without its folder (`run-log.ts`, `mark-palette.test.ts`, `cli.md`): not glued to a
 * path, a dot or a wildcard before it, nor to a folder or a call after it. JSON names are left out:
 * the docs name the user's own files (`grid.json`, `my-run.json`).
 */
const BARE_NAME_RE = /(?<![\w@./\-~*])[\w-][\w.-]*\.(?:tsx?|mjs|md|css)(?![\w/(-])/g;

const ANY_PATH_RE = new RegExp(PATH_RE.source);
const ANY_BARE_NAME_RE = new RegExp(BARE_NAME_RE.source);

/**
 * Whether a file may cite anything, so most files are never parsed. A source file is looked at
 * through a rough cut of its comments (every `//` to the line's end and `/*` to the next `*\/`,
 * strings not stepped over): that holds every real comment's text, and more.
 */
function mayCite(file: string, text: string): boolean {
  const rough = CODE_EXT.test(file) ? (text.match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? []).join('\n') : text;
  return ANY_PATH_RE.test(rough) || ANY_BARE_NAME_RE.test(rough);
}

/**
 * Files the code writes at run time, which a comment or doc may name though no source file has
 * that name: the worker bundles (lib/sweeps/worker-bundle.ts, lib/run-threads/run-threads.ts).
 */
const BUILT_NAMES = new Set(['sweep-worker.mjs', 'run-thread.mjs']);

/** Characters that, right after a path, make it a pattern (`lib/server/get-*-registry.ts`, `lib/<room>/`). */
const PATTERN_NEXT = new Set(['*', '{', '<']);

/**
 * Top-level paths cited in a piece of text, each with its offset in the text. A sentence's closing
 * dot or comma is dropped; a pattern is cut back to its last whole folder.
 */
export function pathsIn(text: string): { at: number; cited: string }[] {
  const out: { at: number; cited: string }[] = [];
  for (const m of text.matchAll(PATH_RE)) {
    let cited = m[0];
    if (PATTERN_NEXT.has(text[m.index + cited.length] ?? ''))
      cited = cited.slice(0, cited.lastIndexOf('/') + 1);
    else cited = cited.replace(/[.,]+$/, '');
    // `lib/` alone is a top folder, not a citation worth checking.
    if (cited.indexOf('/') === cited.length - 1) continue;
    out.push({ at: m.index, cited });
  }
  return out;
}

/**
 * The comments of a TypeScript/JavaScript file, each as its offset and text. The file is parsed, so
 * string, template and regular-expression literals and JSX text (where `//` is not a comment) are
 * stepped over; everything else that starts with `//` or `/*` is a comment.
 */
export function commentsOf(fileName: string, text: string): { at: number; text: string }[] {
  const kind = fileName.endsWith('x')
    ? ts.ScriptKind.TSX
    : /\.(m|c)?js$/.test(fileName)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const opaque: [number, number][] = [];
  const visit = (node: ts.Node): void => {
    switch (node.kind) {
      case ts.SyntaxKind.StringLiteral:
      case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
      case ts.SyntaxKind.TemplateHead:
      case ts.SyntaxKind.TemplateMiddle:
      case ts.SyntaxKind.TemplateTail:
      case ts.SyntaxKind.RegularExpressionLiteral:
      case ts.SyntaxKind.JsxText:
        opaque.push([node.getStart(source), node.end]);
        return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  opaque.sort((a, b) => a[0] - b[0]);

  const comments: { at: number; text: string }[] = [];
  let next = 0;
  let i = 0;
  while (i < text.length) {
    const literal = opaque[next];
    if (literal && i >= literal[0]) {
      i = Math.max(i, literal[1]);
      next++;
      continue;
    }
    const stop = literal ? literal[0] : text.length;
    const slash = text.indexOf('/', i);
    if (slash < 0 || slash >= stop) {
      i = stop;
      continue;
    }
    const after = text[slash + 1];
    if (after === '/' || after === '*') {
      const end = after === '/' ? lineEnd(text, slash) : blockEnd(text, slash);
      comments.push({ at: slash, text: text.slice(slash, end) });
      i = end;
      // A literal the comment swallowed (there is none in a parsed file, but be safe) is passed.
      while ((opaque[next]?.[0] ?? Infinity) < i) next++;
    } else {
      i = slash + 1;
    }
  }
  return comments;
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl < 0 ? text.length : nl;
}

function blockEnd(text: string, from: number): number {
  const close = text.indexOf('*/', from + 2);
  return close < 0 ? text.length : close + 2;
}

/** The comments of a shell script: from a `#` at a line's start or after a space, to the line's end. */
export function shellCommentsOf(text: string): { at: number; text: string }[] {
  const out: { at: number; text: string }[] = [];
  for (const m of text.matchAll(/(^|[ \t])(#(?!!)[^\n]*)/gm)) {
    const [, space = '', comment = ''] = m;
    out.push({ at: m.index + space.length, text: comment });
  }
  return out;
}

/** The comments of a stylesheet. */
function cssCommentsOf(text: string): { at: number; text: string }[] {
  return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => ({ at: m.index, text: m[0] }));
}

/** Markdown link targets that are relative to the doc (`[x](cli.md)`, `[x](../lib/a.ts#L3)`). */
function relativeLinks(text: string): { at: number; target: string }[] {
  const out: { at: number; target: string }[] = [];
  for (const m of text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
    const target = m[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
    out.push({ at: m.index + 2, target });
  }
  return out;
}

function lineAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? Infinity) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Every file under `dir` (repo-relative), build output and dependencies left out. */
function walk(root: string, dir: string, out: string[], skip: ReadonlySet<string> = SKIP_PATHS): void {
  let entries;
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !skip.has(rel)) walk(root, rel, out, skip);
    } else if (e.isFile()) out.push(rel);
  }
}

/** The files read: source files under the source folders and at the top, and every Markdown doc. */
export function filesToRead(root: string): string[] {
  const files: string[] = [];
  for (const dir of SOURCE_ROOTS) walk(root, dir, files);
  walk(root, 'docs', files);
  for (const e of readdirSync(root, { withFileTypes: true })) if (e.isFile()) files.push(e.name);
  return files.filter((f) => CODE_EXT.test(f) || /\.(md|css)$/.test(f) || f.startsWith('.ci/'));
}

/** File names cited without a folder, each with its offset in the text. */
export function bareNamesIn(text: string): { at: number; cited: string }[] {
  return [...text.matchAll(BARE_NAME_RE)].map((m) => ({ at: m.index, cited: m[0] }));
}

/** Every citation in one file. */
export function citationsIn(file: string, text: string): Citation[] {
  const starts = lineStarts(text);
  const out: Citation[] = [];
  const add = (at: number, cited: string): void => void out.push({ file, line: lineAt(starts, at), cited });
  const scan = (at: number, piece: string): void => {
    for (const p of pathsIn(piece)) add(at + p.at, p.cited);
    for (const n of bareNamesIn(piece)) add(at + n.at, n.cited);
  };
  if (file.endsWith('.md')) {
    scan(0, text);
    const dir = path.posix.dirname(file);
    for (const l of relativeLinks(text)) add(l.at, path.posix.normalize(path.posix.join(dir, l.target)));
    return out;
  }
  const comments = CODE_EXT.test(file)
    ? commentsOf(file, text)
    : file.endsWith('.css')
      ? cssCommentsOf(text)
      : shellCommentsOf(text);
  for (const c of comments) scan(c.at, c.text);
  return out;
}

/**
 * Whether a cited path names something in the repo: a file, a folder, or a module written without
 * its extension; a name cited without a folder must be the name of some file in the repo.
 */
export function exists(root: string, cited: string, names: ReadonlySet<string>): boolean {
  if (!cited.includes('/')) return names.has(cited) || BUILT_NAMES.has(cited);
  const full = path.join(root, cited);
  if (existsSync(full)) return true;
  if (cited.endsWith('/')) return false;
  return ['.ts', '.tsx', '.mjs', '.js', '/index.ts'].some((ext) => existsSync(full + ext));
}

/** Every citation in the repo's comments and docs whose path does not exist. */
export function missingCitations(root: string): Citation[] {
  const missing: Citation[] = [];
  const known = new Map<string, boolean>();
  const everyFile: string[] = [];
  walk(root, '', everyFile, new Set()); // every file's name counts as existing, a task's included
  const names = new Set(everyFile.map((f) => path.posix.basename(f)));
  for (const file of filesToRead(root)) {
    const text = readFileSync(path.join(root, file), 'utf8');
    if (!mayCite(file, text)) continue;
    for (const c of citationsIn(file, text)) {
      let ok = known.get(c.cited);
      if (ok === undefined) known.set(c.cited, (ok = exists(root, c.cited, names)));
      if (!ok) missing.push(c);
    }
  }
  return missing;
}
