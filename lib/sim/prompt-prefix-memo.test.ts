import { describe, expect, it } from 'vitest';
import type { Message } from '@/lib/protocol';
import { PrefixMemo, promptPrefix } from './prompt-cache';
import type { PolicyTool } from './types';

const TOOLS: PolicyTool[] = [
  { name: 'read_file', description: 'Reads a file.', inputSchema: { type: 'object', properties: {} } },
  { name: 'run_tests', description: 'Runs the tests.', inputSchema: { type: 'object' } },
];
const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
const call = (id: string): Message => ({
  role: 'assistant',
  parts: [
    { type: 'text', text: 'Reading it.' },
    { type: 'tool_call', id, name: 'read_file', argsText: '{"path":"a.ts"}', args: { path: 'a.ts' } },
  ],
});
const result = (id: string, content: string): Message => ({
  role: 'user',
  parts: [{ type: 'tool_result', callId: id, content, isError: false }],
});
const request = (messages: Message[], model = 'claude-sim-sonnet', system = 'Fix the failing test.') => ({
  model,
  system,
  tools: TOOLS,
  messages,
});

describe("a run's prompt prefixes, with the last request's blocks kept", () => {
  it('gives every request the hashes and tokens it gets without them', () => {
    const turns = [user('Fix it.'), call('c1'), result('c1', 'line 1\nline 2'), call('c2')];
    const requests = [
      request(turns.slice(0, 1)),
      request(turns.slice(0, 3)),
      request(turns),
      request(turns),
      // An earlier block changed (a compaction, an edited message): everything from it differs.
      request([user('Fix it, please.'), ...turns.slice(1)]),
      request(turns.slice(0, 2)),
      request(turns, 'claude-sim-haiku'),
      request(turns, 'claude-sim-haiku', 'Another system prompt.'),
      request([]),
    ];
    const memo = new PrefixMemo();
    for (const r of requests) expect(promptPrefix(r, memo)).toEqual(promptPrefix(r));
  });

  it('takes the blocks a request repeats from the last one, and works out only those it adds', () => {
    const memo = new PrefixMemo();
    const turns = [user('Fix it.'), call('c1'), result('c1', 'ok')];
    const first = promptPrefix(request(turns.slice(0, 1)), memo);
    const repeated = first.hashes.length - 1; // two tools, the system prompt, the first message
    expect(memo.hashes).toHaveLength(repeated);
    // Marked, so the next request shows which blocks it took from the memo rather than hashing again.
    memo.hashes = memo.hashes.map((_, i) => `kept ${i}`);
    memo.counts = memo.counts.map(() => 1);
    const next = promptPrefix(request(turns), memo);
    expect(next.hashes.slice(1, 1 + repeated)).toEqual(
      memo.hashes.slice(0, repeated).map((_, i) => `kept ${i}`),
    );
    expect(next.tokens.slice(0, 1 + repeated)).toEqual(Array.from({ length: 1 + repeated }, (_, i) => i));
    // The blocks it adds (the assistant's two parts, the result) are its own: hashed on from the kept chain.
    expect(next.hashes.slice(1 + repeated).every((hash) => !hash.startsWith('kept'))).toBe(true);
    expect(next.hashes).toHaveLength(first.hashes.length + 3);
  });
});
