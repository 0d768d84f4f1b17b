import { describe, expect, it } from 'vitest';
import type { Message } from '@/lib/protocol';
import { estimateTokens } from './count-tokens';
import { estimateMessagesTokens, estimateRequestTokens } from './estimate-request-tokens';
import { messageTokens, requestTokens } from './request-tokens';

const turn = (i: number): Message[] => [
  {
    role: 'assistant',
    parts: [
      { type: 'text', text: `Reading module ${i} to follow the value.`.repeat(i + 1) },
      { type: 'tool_call', id: `t${i}`, name: 'read_file', argsText: `{"path":"m${i}.js"}` },
    ],
  },
  {
    role: 'user',
    parts: [
      {
        type: 'tool_result',
        callId: `t${i}`,
        content: 'export const value = 42;\n'.repeat(i + 3),
        isError: false,
      },
    ],
  },
];

describe('estimateMessagesTokens (kept per list, extended as the log grows)', () => {
  it('matches a fresh count at every length of a growing log', () => {
    const log: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'Read every module.' }] }];
    for (let i = 0; i < 8; i++) {
      log.push(...turn(i));
      const fresh = log.reduce((sum, m) => sum + messageTokens(m, estimateTokens), 0);
      expect(estimateMessagesTokens(log)).toBe(fresh);
      expect(estimateRequestTokens({ system: 'Be careful.', messages: log })).toBe(
        requestTokens({ system: 'Be careful.', messages: log }, estimateTokens),
      );
    }
  });

  it('counts a list that shrank (a different history in the same array) from scratch', () => {
    const log: Message[] = [...turn(1), ...turn(2)];
    estimateMessagesTokens(log);
    log.length = 2;
    expect(estimateMessagesTokens(log)).toBe(
      turn(1).reduce((sum, m) => sum + messageTokens(m, estimateTokens), 0),
    );
  });
});
