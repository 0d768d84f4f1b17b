import { z } from 'zod';
import type { Tool } from '../types';
import { countLines } from './list-files';
import { fail, ok, resolvePath } from './tool-result';

const input = z.strictObject({
  path: z.string().min(1).describe('File to create or overwrite, relative to the workspace root.'),
  content: z.string().describe('The complete new content of the file.'),
});

/** Creates or overwrites a whole file; says which it did so an accidental overwrite shows. */
export const writeFileTool: Tool<z.infer<typeof input>> = {
  name: 'write_file',
  mutates: true,
  description: 'Create a file, or overwrite an existing one, with the given content.',
  input,
  run({ path, content }, { workspace }) {
    const resolved = resolvePath(path);
    if ('error' in resolved) return resolved.error;
    const file = resolved.path;
    if (file === '')
      return fail('Error: path is the workspace root; give a file path such as "src/new-file.js".');
    if (workspace.isDir(file)) {
      return fail(
        `Error: "${file}" is a folder (it contains ${workspace.list(file).join(', ')}); give a file path inside it.`,
      );
    }
    const existed = workspace.read(file) !== undefined;
    workspace.write(file, content);
    return ok(
      `${existed ? 'Overwrote' : 'Created'} ${file} (${countLines(content)} lines, ${content.length} chars).`,
    );
  },
};
