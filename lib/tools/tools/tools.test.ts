import { describe, expect, it } from 'vitest';
import { createRandom, VirtualClock } from '@/lib/clock';
import type { Tool, ToolContext } from '../types';
import { createWorkspace } from '../workspace';
import { editFileTool } from './edit-file';
import { listFilesTool } from './list-files';
import { readFileTool } from './read-file';
import { searchTool } from './search';
import { writeFileTool } from './write-file';

const FILES = {
  'src/math.js': 'function add(a, b) {\n  return a - b;\n}\nfunction sub(a, b) {\n  return a - b;\n}\n',
  'src/util.js': 'const x = 1;\n',
  'docs/setup-guide.md': '# Setup\n',
  'docs/install.md': '# Install\n',
};

function setup(): ToolContext {
  return {
    workspace: createWorkspace({ files: FILES }),
    clock: new VirtualClock(),
    random: createRandom(1),
    signal: new AbortController().signal,
  };
}

async function run<I>(tool: Tool<I>, args: unknown, ctx = setup()) {
  return tool.run(tool.input.parse(args), ctx);
}

describe('list_files', () => {
  it('lists files recursively with sizes', async () => {
    const r = await run(listFilesTool, { path: 'src' });
    expect(r).toEqual({
      isError: false,
      content: '2 files in src:\nsrc/math.js (6 lines, 78 chars)\nsrc/util.js (1 lines, 13 chars)',
    });
  });
  it('names the nearest paths when the folder is missing', async () => {
    const r = await run(listFilesTool, { path: 'doc' });
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^Error: path "doc" does not exist\./);
  });
});

describe('read_file', () => {
  it('returns numbered lines with a range header', async () => {
    const r = await run(readFileTool, { path: 'src/math.js', offset: 2, limit: 2 });
    expect(r.content).toBe(
      'src/math.js — lines 2–3 of 6\n2\t  return a - b;\n3\t}\n(3 more lines: call read_file with offset 4 to continue.)',
    );
  });
  it('reads the whole file by default', async () => {
    const r = await run(readFileTool, { path: 'src/util.js' });
    expect(r.content).toBe('src/util.js — lines 1–1 of 1\n1\tconst x = 1;');
  });
  it('names sibling and similar files when the file is missing', async () => {
    const r = await run(readFileTool, { path: 'docs/setup.md' });
    expect(r).toEqual({
      isError: true,
      content:
        'Error: file "docs/setup.md" does not exist. Did you mean: docs/setup-guide.md, docs/install.md?',
    });
  });
  it('explains an offset past the end and a folder path', async () => {
    expect((await run(readFileTool, { path: 'src/util.js', offset: 5 })).content).toBe(
      'Error: offset 5 is past the end of src/util.js, which has 1 lines. Use an offset from 1 to 1.',
    );
    expect((await run(readFileTool, { path: 'src' })).content).toMatch(
      /"src" is a folder, not a file\. It contains: math\.js, util\.js/,
    );
  });
});

describe('search', () => {
  it('reports file:line: text for regex matches', async () => {
    const r = await run(searchTool, { pattern: 'return a [-+] b' });
    expect(r.content).toBe(
      '2 matches for /return a [-+] b/ in the workspace:\nsrc/math.js:2:   return a - b;\nsrc/math.js:5:   return a - b;',
    );
  });
  it('falls back to literal text for an invalid regex and says so', async () => {
    const r = await run(searchTool, { pattern: 'add(' });
    expect(r.content).toMatch(
      /^\(Not a valid regular expression — .*searched for it as literal text\.\)\n1 match for \/add\\\(\//,
    );
  });
  it('caps results and says how many were not shown', async () => {
    const r = await run(searchTool, { pattern: '\\w', path: 'src/math.js', max_results: 2 });
    expect(r.content).toMatch(/^4 matches/);
    expect(r.content).toMatch(
      /\(2 more matches not shown: narrow the pattern or path, or raise max_results\.\)$/,
    );
  });
  it('answers a repeated pattern exactly as the first time (the compiled program is reused)', async () => {
    for (const pattern of ['return a [-+] b', 'add(', '(?=x)']) {
      const first = await run(searchTool, { pattern });
      expect(await run(searchTool, { pattern })).toEqual(first);
    }
    expect((await run(searchTool, { pattern: '(?=x)' })).content).toMatch(
      /^Error: search uses a linear-time regex engine/,
    );
  });
  it('says when nothing matched and when the path is missing', async () => {
    expect((await run(searchTool, { pattern: 'zzz', path: 'src' })).content).toBe(
      'No matches for /zzz/ in src (2 files searched). Try a shorter or looser pattern.',
    );
    expect((await run(searchTool, { pattern: 'x', path: 'lib' })).isError).toBe(true);
  });
});

describe('edit_file', () => {
  it('replaces a unique match and shows the result', async () => {
    const ctx = setup();
    const r = await run(editFileTool, { path: 'src/util.js', old_string: 'x = 1', new_string: 'x = 2' }, ctx);
    expect(r.content).toBe('Edited src/util.js: replaced 1 occurrence at line 1. Now:\n1\tconst x = 2;');
    expect(ctx.workspace.read('src/util.js')).toBe('const x = 2;\n');
  });
  it('refuses an ambiguous match, naming the lines', async () => {
    const r = await run(editFileTool, {
      path: 'src/math.js',
      old_string: 'return a - b;',
      new_string: 'return a + b;',
    });
    expect(r).toEqual({
      isError: true,
      content:
        'Error: old_string occurs 2 times in src/math.js (lines 2, 5). Include more surrounding lines so it matches exactly once.',
    });
  });
  it('shows the closest line when nothing matches', async () => {
    const r = await run(editFileTool, {
      path: 'src/math.js',
      old_string: 'function ad(a, b) {',
      new_string: 'x',
    });
    expect(r.content).toBe(
      'Error: old_string was not found in src/math.js. Closest line is 1: "function add(a, b) {" Read the file again and copy old_string exactly.',
    );
  });
  it('points out whitespace differences and line-number prefixes', async () => {
    const ws = await run(editFileTool, {
      path: 'src/math.js',
      old_string: 'function add(a, b) {\n return a - b;',
      new_string: 'x',
    });
    expect(ws.content).toMatch(/It does match if whitespace is ignored/);
    const prefixed = await run(editFileTool, {
      path: 'src/util.js',
      old_string: '1\tconst x = 1;',
      new_string: 'x',
    });
    expect(prefixed.content).toMatch(/Leave out the line-number prefixes/);
  });
  it('rejects empty and no-op edits and missing files', async () => {
    expect(
      (await run(editFileTool, { path: 'src/util.js', old_string: '', new_string: 'x' })).content,
    ).toMatch(/old_string is empty/);
    expect(
      (await run(editFileTool, { path: 'src/util.js', old_string: 'x', new_string: 'x' })).content,
    ).toMatch(/identical/);
    expect(
      (await run(editFileTool, { path: 'src/utils.js', old_string: 'x', new_string: 'y' })).content,
    ).toMatch(/Did you mean: src\/util\.js/);
  });
});

describe('write_file', () => {
  it('creates, then overwrites', async () => {
    const ctx = setup();
    expect((await run(writeFileTool, { path: 'src/new.js', content: 'a\nb\n' }, ctx)).content).toBe(
      'Created src/new.js (2 lines, 4 chars).',
    );
    expect((await run(writeFileTool, { path: 'src/new.js', content: 'c' }, ctx)).content).toBe(
      'Overwrote src/new.js (1 lines, 1 chars).',
    );
  });
  it('refuses folders, the root and paths outside the workspace', async () => {
    expect((await run(writeFileTool, { path: 'src', content: '' })).content).toMatch(/"src" is a folder/);
    expect((await run(writeFileTool, { path: '/', content: '' })).content).toMatch(/workspace root/);
    expect((await run(writeFileTool, { path: '../x', content: '' })).content).toMatch(/leaves the workspace/);
  });
});
