import { nearestPaths, normalizePath } from '../paths';
import type { ToolResult, Workspace } from '../types';

export function ok(content: string): ToolResult {
  return { content, isError: false };
}

export function fail(content: string): ToolResult {
  return { content, isError: true };
}

/** Normalises a path argument, or says why it cannot be used. */
export function resolvePath(path: string): { path: string } | { error: ToolResult } {
  try {
    return { path: normalizePath(path) };
  } catch (error) {
    return { error: fail(error instanceof Error ? error.message : String(error)) };
  }
}

/**
 * "Not found" with somewhere to go: the nearest existing paths (same folder, similar names),
 * or the top-level listing when nothing is close.
 */
export function notFound(options: {
  workspace: Workspace;
  path: string;
  what?: 'file' | 'path';
}): ToolResult {
  const { workspace, path, what = 'file' } = options;
  const near = nearestPaths({ missing: path, paths: workspace.paths() });
  const hint =
    near.length > 0
      ? `Did you mean: ${near.join(', ')}?`
      : `Top-level entries: ${workspace.list('').join(', ') || '(empty workspace)'}. Call list_files to look around.`;
  return fail(`Error: ${what} "${path}" does not exist. ${hint}`);
}
