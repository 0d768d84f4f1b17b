import { describe, expect, it } from 'vitest';
import { countTokens } from './count-tokens';

describe('countTokens', () => {
  it('counts o200k_base tokens exactly as tiktoken does (figures from js-tiktoken, the tokenizer it replaced)', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('function slugify(s) { return s.toLowerCase(); }')).toBe(13);
    expect(countTokens('héllo wörld 你好 🎉')).toBe(9);
    expect(countTokens('  indented\n\tcode\r\n')).toBe(6);
    expect(countTokens('')).toBe(0);
  });
});
