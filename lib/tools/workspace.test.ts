import { describe, expect, it } from 'vitest';
import { nearestPaths, normalizePath } from './paths';
import { createWorkspace } from './workspace';

describe('MemoryWorkspace', () => {
  const files = { 'src/a.js': 'a', 'src/lib/b.js': 'b', 'README.md': '# r' };

  it('normalises paths and lists direct children', () => {
    const ws = createWorkspace({ files });
    expect(ws.read('./src//a.js')).toBe('a');
    expect(ws.list()).toEqual(['README.md', 'src/']);
    expect(ws.list('src')).toEqual(['a.js', 'lib/']);
    expect(ws.exists('src/lib')).toBe(true);
    expect(ws.isDir('src/a.js')).toBe(false);
    expect(ws.paths()).toEqual(['README.md', 'src/a.js', 'src/lib/b.js']);
  });

  it('writes into its own copy and bumps the revision', () => {
    const ws = createWorkspace({ files });
    ws.write('src/c.js', 'c');
    expect(ws.revision()).toBe(1);
    expect(files).not.toHaveProperty('src/c.js');
    expect(() => ws.write('src', 'x')).toThrow(/is a folder/);
    expect(() => normalizePath('../etc/passwd')).toThrow(/leaves the workspace/);
  });

  it('suggests siblings and similar names for a missing path', () => {
    const paths = ['docs/setup-guide.md', 'docs/install.md', 'src/index.js'];
    expect(nearestPaths({ missing: 'docs/setup.md', paths })).toEqual([
      'docs/setup-guide.md',
      'docs/install.md',
    ]);
  });
});
