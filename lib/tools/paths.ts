import { MAX_COMPARED_CHARS, similarity } from './similarity';

/**
 * Path rules for the virtual workspace. Paths are relative, slash-separated and never leave
 * the workspace root, so every tool and the check agree on what a path names.
 */

/** Normalises `./src//a.js`, `/src/a.js` and `src/./a.js` to `src/a.js`; `..` is refused. */
export function normalizePath(input: string): string {
  const parts: string[] = [];
  for (const part of input.trim().replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..')
      throw new Error(`path "${input}" leaves the workspace; use a path relative to the workspace root`);
    parts.push(part);
  }
  return parts.join('/');
}

export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The existing paths nearest a missing one: files in the same folder and files with a similar
 * name anywhere, best first. A model corrects toward names it is shown, not toward "not found".
 */
export function nearestPaths(options: { missing: string; paths: string[]; max?: number }): string[] {
  const { missing, paths, max = 5 } = options;
  const dir = dirname(missing);
  const name = basename(missing).toLowerCase();
  const stem = name.replace(/\.[^.]*$/, '');
  const candidates = boundCandidates(paths, dir);
  const scored = candidates.map((path) => {
    const other = basename(path).toLowerCase();
    let score = similarity(name, other);
    if (stem.length >= 3 && stem.length <= MAX_COMPARED_CHARS && other.includes(stem)) score += 0.5;
    if (dirname(path) === dir) score += 0.4;
    score += similarity(missing.toLowerCase(), path.toLowerCase()) * 0.3;
    return { path, score };
  });
  return scored
    .filter((s) => s.score >= 0.45)
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
    .slice(0, max)
    .map((s) => s.path);
}

/** Most paths a "did you mean" compares (same-folder paths first), so a hint stays cheap. */
export const MAX_HINT_CANDIDATES = 1000;

function boundCandidates(paths: string[], dir: string): string[] {
  if (paths.length <= MAX_HINT_CANDIDATES) return paths;
  const near = paths.filter((p) => dirname(p) === dir);
  const far = paths.filter((p) => dirname(p) !== dir);
  return [...near, ...far].slice(0, MAX_HINT_CANDIDATES);
}
