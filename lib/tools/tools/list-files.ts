import { z } from 'zod';
import type { Tool } from '../types';
import { notFound, ok, resolvePath } from './tool-result';

const input = z.strictObject({
  path: z.string().optional().describe('Folder to list, relative to the workspace root (default: the root).'),
});

/** Lists every file under a folder with its size, so the model can choose what to read. */
export const listFilesTool: Tool<z.infer<typeof input>> = {
  name: 'list_files',
  parallelSafe: true,
  description: 'List the files under a folder of the workspace (recursively), with line counts.',
  input,
  run({ path = '' }, { workspace }) {
    const resolved = resolvePath(path);
    if ('error' in resolved) return resolved.error;
    const dir = resolved.path;
    if (!workspace.exists(dir)) return notFound({ workspace, path: dir, what: 'path' });
    const files = workspace.isDir(dir)
      ? workspace.paths().filter((p) => dir === '' || p.startsWith(`${dir}/`))
      : [dir];
    const lines = files.map((p) => {
      const content = workspace.read(p) ?? '';
      return `${p} (${countLines(content)} lines, ${content.length} chars)`;
    });
    const where = dir === '' ? 'the workspace' : dir;
    return ok(`${files.length} file${files.length === 1 ? '' : 's'} in ${where}:\n${lines.join('\n')}`);
  },
};

export function countLines(content: string): number {
  if (content === '') return 0;
  return content.endsWith('\n') ? content.split('\n').length - 1 : content.split('\n').length;
}
