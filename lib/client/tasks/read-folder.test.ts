import { describe, expect, it } from 'vitest';
import { folderUpload } from './read-folder';

const text = (s: string) => new TextEncoder().encode(s);

describe('a chosen folder read for upload', () => {
  it('is its files by their path inside it, named after it in the task id alphabet', () => {
    const read = folderUpload([
      { path: 'My_Task/task.md', bytes: text('Do it.') },
      { path: 'My_Task/tests/a.test.js', bytes: text('test()') },
    ]);
    expect(read).toEqual({
      ok: true,
      name: 'my-task',
      files: { 'task.md': 'Do it.', 'tests/a.test.js': 'test()' },
    });
  });

  it('names a file that is not UTF-8 text, or too large, rather than sending it mangled', () => {
    const read = folderUpload([
      { path: 't/task.md', bytes: text('x') },
      { path: 't/workspace/logo.png', bytes: new Uint8Array([0x89, 0x50, 0xff, 0xfe]) },
      { path: 't/workspace/big.txt', bytes: new Uint8Array(1_000_001) },
    ]);
    expect(read).toEqual({
      ok: false,
      problems: [
        'workspace/logo.png: not UTF-8 text; a task holds text files only',
        'workspace/big.txt: 1000001 bytes; a file may hold at most 1000000',
      ],
    });
  });

  it('refuses loose files and an empty choice, saying what to choose', () => {
    expect(folderUpload([{ path: 'task.md', bytes: text('x') }])).toEqual({
      ok: false,
      problems: ['choose one folder (its task.md at the top), not loose files'],
    });
    expect(folderUpload([])).toEqual({ ok: false, problems: ['the folder is empty: choose a task folder'] });
  });
});
