import { describe, expect, it } from 'vitest';
import type { ToolCallPart } from '@/lib/protocol';
import { groupCalls } from './engine';

const READS = new Set(['list_files', 'read_file', 'search']);
const call = (id: string, name: string): ToolCallPart => ({ type: 'tool_call', id, name, argsText: '{}' });

describe('parallel tool calls on the port', () => {
  it('groups neighbouring read-only calls up to the limit; anything that may write runs alone, each group with its reason', () => {
    const calls = [
      call('a', 'read_file'),
      call('b', 'search'),
      call('c', 'edit_file'),
      call('d', 'read_file'),
      call('e', 'read_file'),
      call('f', 'read_file'),
    ];
    const groups = groupCalls(calls, (c) => READS.has(c.name), 2);
    expect(groups.map((g) => [g.calls.map((c) => c.id).join(''), g.parallel])).toEqual([
      ['ab', true],
      ['c', false],
      ['de', true],
      ['f', false],
    ]);
    expect(groups[1]!.why).toBe(
      'edit_file runs alone: it may change the workspace, so it never runs beside another call',
    );
    expect(groups[3]!.why).toBe('read_file runs after the 2 calls before it: at most 2 run at once');
    expect(groupCalls(calls, (c) => READS.has(c.name), 1).every((g) => !g.parallel)).toBe(true);
  });
});
