import { describe, expect, it } from 'vitest';
import type { Message } from '@/lib/protocol';
import { compactOldResults } from './compact-old-results';

const call = (id: string): Message => ({
  role: 'assistant',
  parts: [{ type: 'tool_call', id, name: 'read_file', argsText: '{}', args: {} }],
});
const result = (id: string, size: number): Message => ({
  role: 'user',
  parts: [{ type: 'tool_result', callId: id, content: 'x'.repeat(size), isError: false }],
});

describe('compactOldResults', () => {
  it('stubs large results older than the last iterations and leaves the rest alone', () => {
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'task' }] },
      call('a'),
      result('a', 5_000),
      call('b'),
      result('b', 200),
      call('c'),
      result('c', 5_000),
      call('d'),
      result('d', 5_000),
    ];
    const { messages: sent, compacted } = compactOldResults({ messages, minChars: 1_000, keepIterations: 2 });
    expect(compacted).toBe(1);
    const content = (m: Message) => (m.parts[0]!.type === 'tool_result' ? m.parts[0]!.content : '');
    expect(content(sent[2]!)).toMatch(/Older tool result cleared.*5000 characters/);
    expect(content(sent[4]!)).toHaveLength(200);
    expect(content(sent[6]!)).toHaveLength(5_000);
    expect(content(sent[8]!)).toHaveLength(5_000);
    // The log's own copy is untouched.
    expect(content(messages[2]!)).toHaveLength(5_000);
  });
});
