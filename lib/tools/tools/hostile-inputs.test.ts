import { describe, expect, it } from 'vitest';
import { createRandom, VirtualClock } from '@/lib/clock';
import { nearestPaths } from '../paths';
import type { Tool, ToolContext, ToolResult } from '../types';
import { createWorkspace } from '../workspace';
import { editFileTool } from './edit-file';
import { searchTool } from './search';

/**
 * Inputs a model can send that used to hold the server's only thread for seconds to minutes
 *. Each test yields to the timer queue after the call, so a call that
 * blocked past the test timeout fails by that timeout; no timing is asserted.
 */
const HOSTILE_TIMEOUT_MS = 3_000;

function ctxWith(files: Record<string, string>): ToolContext {
  return {
    workspace: createWorkspace({ files }),
    clock: new VirtualClock(),
    random: createRandom(1),
    signal: new AbortController().signal,
  };
}

async function call<I>(tool: Tool<I>, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const result = await tool.run(tool.input.parse(args), ctx);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return result;
}

describe('search on hostile patterns', () => {
  it(
    'answers a catastrophic-backtracking pattern at once (RE2: linear time)',
    { timeout: HOSTILE_TIMEOUT_MS },
    async () => {
      const ctx = ctxWith({ 'a.txt': `${'a'.repeat(30)}!\n${'a'.repeat(5)}\n` });
      const r = await call(searchTool, { pattern: '(a+)+$' }, ctx);
      expect(r.isError).toBe(false);
      expect(r.content).toBe('1 match for /(a+)+$/ in the workspace:\na.txt:2: aaaaa');
    },
  );

  it('refuses lookaround and backreferences with a message that says what to do', async () => {
    const ctx = ctxWith({ 'a.txt': 'foo bar\n' });
    for (const pattern of ['foo(?= bar)', '(o)\\1']) {
      const r = await call(searchTool, { pattern }, ctx);
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(
        /^Error: search uses a linear-time regex engine \(RE2\), which does not support this pattern/,
      );
      expect(r.content).toMatch(/rewrite the pattern without them, or search for literal text/);
    }
  });
});

describe('"did you mean" on hostile paths', () => {
  it(
    'suggests paths without a quadratic distance on 40,000-character names',
    { timeout: HOSTILE_TIMEOUT_MS },
    async () => {
      const long = `src/${'y'.repeat(40_000)}.js`;
      const near = nearestPaths({ missing: `src/${'y'.repeat(39_999)}z.js`, paths: [long, 'src/a.js'] });
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(near[0]).toBe(long);
    },
  );

  it('still ranks ordinary near-misses first', () => {
    const paths = ['src/slugify.js', 'src/index.js', 'test/slugify.test.js'];
    expect(nearestPaths({ missing: 'src/slugfy.js', paths })[0]).toBe('src/slugify.js');
  });
});

describe('edit_file on hostile inputs', () => {
  it(
    'finds the closest line of a large file against a long old_string without blocking',
    { timeout: HOSTILE_TIMEOUT_MS },
    async () => {
      const line = (i: number): string => `${String(i).padStart(5, '0')} ${'w'.repeat(3_000)}`;
      const content = Array.from({ length: 400 }, (_, i) => line(i)).join('\n');
      const ctx = ctxWith({ 'big.txt': content });
      const r = await call(
        editFileTool,
        { path: 'big.txt', old_string: `00007 ${'w'.repeat(2_999)}x`, new_string: 'y' },
        ctx,
      );
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(
        /^Error: old_string was not found in big\.txt\. Closest line is 8: "00007 w+"/,
      );
    },
  );

  it(
    'searches for a needle that makes indexOf quadratic in linear time',
    { timeout: HOSTILE_TIMEOUT_MS },
    async () => {
      const ctx = ctxWith({ 'a.txt': 'a'.repeat(300_000) });
      const needle = `${'a'.repeat(20_000)}b${'a'.repeat(20_000)}`;
      const r = await call(editFileTool, { path: 'a.txt', old_string: needle, new_string: 'x' }, ctx);
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/^Error: old_string was not found in a\.txt\./);
    },
  );

  it(
    'checks for read_file line prefixes without a quadratic regex on blank lines',
    { timeout: HOSTILE_TIMEOUT_MS },
    async () => {
      const ctx = ctxWith({ 'a.txt': 'hello\n' });
      const r = await call(
        editFileTool,
        { path: 'a.txt', old_string: `${'\n'.repeat(60_000)}x`, new_string: 'y' },
        ctx,
      );
      expect(r.content).toMatch(/^Error: old_string was not found in a\.txt\./);
      const prefixed = await call(
        editFileTool,
        { path: 'a.txt', old_string: '\n  12\thello there', new_string: 'y' },
        ctx,
      );
      expect(prefixed.content).toContain('Leave out the line-number prefixes that read_file adds.');
    },
  );

  it(
    'counts a one-letter old_string in a huge file in one pass',
    { timeout: HOSTILE_TIMEOUT_MS },
    async () => {
      const ctx = ctxWith({ 'a.txt': `${'a'.repeat(400_000)}\nb a` });
      const r = await call(editFileTool, { path: 'a.txt', old_string: 'a', new_string: 'x' }, ctx);
      expect(r.content).toMatch(/^Error: old_string occurs more than 1000 times in a\.txt \(lines 1, 1, 1,/);
    },
  );

  it('lists the lines of a few overlapping occurrences exactly', async () => {
    const ctx = ctxWith({ 'a.txt': 'aaa\nx\naa\n' });
    const r = await call(editFileTool, { path: 'a.txt', old_string: 'aa', new_string: 'b' }, ctx);
    expect(r.content).toMatch(/^Error: old_string occurs 3 times in a\.txt \(lines 1, 1, 3\)\./);
  });
});
