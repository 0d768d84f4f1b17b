import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Workspace } from '../types';
import { readFolder } from './workspace-server';

/**
 * The shipped server works on a folder; the run works on its in-memory workspace. Before each of
 * the server's calls the folder is made the workspace (files written, files the workspace does not
 * hold removed), so whatever a crashed call left half done is undone; after a call that answered,
 * what the server wrote comes back into the workspace (each changed file one write).
 */
export function syncOut(workspace: Workspace, dir: string): void {
  const onDisk = readFolder(dir);
  for (const file of workspace.paths()) {
    const content = workspace.read(file)!;
    if (onDisk[file] === content) continue;
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  const held = new Set(workspace.paths());
  for (const file of Object.keys(onDisk)) if (!held.has(file)) rmSync(path.join(dir, file), { force: true });
}

/** What the server changed in its folder, written into the workspace; returns the paths written. */
export function syncIn(dir: string, workspace: Workspace): string[] {
  const written: string[] = [];
  for (const [file, content] of Object.entries(readFolder(dir)).sort(([a], [b]) => a.localeCompare(b))) {
    if (workspace.read(file) === content) continue;
    workspace.write(file, content);
    written.push(file);
  }
  return written;
}
