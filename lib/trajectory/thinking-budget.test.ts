import { describe, expect, it } from 'vitest';
import { thinkingBudget } from './thinking-budget';

describe('thinkingBudget', () => {
  it('stays within 1024 and below max_tokens', () => {
    expect(thinkingBudget({ maxTokens: 1024 })).toBeUndefined();
    expect(thinkingBudget({ maxTokens: 1025 })).toBe(1024);
    expect(thinkingBudget({ maxTokens: 8192 })).toBe(4096);
    expect(thinkingBudget({ maxTokens: 200_000 })).toBe(16_000);
  });
});
