import { dirname, normalizePath } from './paths';
import type { Workspace } from './types';

/**
 * An in-memory workspace seeded from a scenario's files. One per run: tools edit this copy,
 * the check runs against it, and nothing touches the disk.
 */
export class MemoryWorkspace implements Workspace {
  private readonly files = new Map<string, string>();
  private rev = 0;

  constructor(files: Record<string, string> = {}) {
    for (const [path, content] of Object.entries(files)) this.files.set(normalizePath(path), content);
  }

  read(path: string): string | undefined {
    return this.files.get(normalizePath(path));
  }

  write(path: string, content: string): void {
    const key = normalizePath(path);
    if (key === '') throw new Error('cannot write to the workspace root; give a file path');
    if (this.isDir(key)) throw new Error(`"${key}" is a folder; give a file path inside it`);
    this.files.set(key, content);
    this.rev++;
  }

  exists(path: string): boolean {
    const key = normalizePath(path);
    return this.files.has(key) || this.isDir(key);
  }

  /** True for the root and for any folder that holds a file. */
  isDir(path: string): boolean {
    const key = normalizePath(path);
    if (key === '') return true;
    for (const p of this.files.keys()) if (p.startsWith(`${key}/`)) return true;
    return false;
  }

  /** Direct children of a folder: files by name, folders with a trailing slash. */
  list(dir = ''): string[] {
    const key = normalizePath(dir);
    const prefix = key === '' ? '' : `${key}/`;
    const entries = new Set<string>();
    for (const p of this.files.keys()) {
      if (!p.startsWith(prefix)) continue;
      const rest = p.slice(prefix.length);
      const slash = rest.indexOf('/');
      entries.add(slash < 0 ? rest : `${rest.slice(0, slash)}/`);
    }
    return [...entries].sort();
  }

  /** Every file path, sorted. */
  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  /** Bumped by every write, so callers can tell that an earlier answer may have changed. */
  revision(): number {
    return this.rev;
  }

  /** Files in the same folder as `path` (for error messages). */
  siblings(path: string): string[] {
    const dir = dirname(normalizePath(path));
    return this.paths().filter((p) => dirname(p) === dir);
  }
}

/** A fresh workspace for one run, seeded from a scenario's files. */
export function createWorkspace(options: { files: Record<string, string> }): MemoryWorkspace {
  return new MemoryWorkspace(options.files);
}
