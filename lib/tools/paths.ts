/**
 * Path rules for the virtual workspace. Paths are relative, slash-separated and never leave
 * the workspace root, so every tool and the check agree on what a path names.
 */

/** Normalises `./src//a.js`, `/src/a.js` and `src/./a.js` to `src/a.js`; `..` is refused. */
export function normalizePath(input: string): string {
  const parts: string[] = [];
  for (const part of input.trim().replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') throw new Error(`path "${input}" leaves the workspace; use a path relative to the workspace root`);
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

/** Edit distance, for "did you mean" suggestions; small inputs only. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Similarity in [0, 1]: 1 for equal strings. */
export function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - levenshtein(a, b) / longest;
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
  const scored = paths.map((path) => {
    const other = basename(path).toLowerCase();
    let score = similarity(name, other);
    if (stem.length >= 3 && other.includes(stem)) score += 0.5;
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
