import { describe, expect, it } from 'vitest';
import { signThinking, verifyThinking } from './signature';

describe('thinking signatures', () => {
  const key = 'k';
  const model = 'claude-sim-sonnet';
  const thinking = 'Let me read the failing test first.';

  it('accepts a block only with the key, model and exact text it was minted for, every time it is asked', () => {
    const signature = signThinking({ key, model, thinking });
    for (let i = 0; i < 3; i++) {
      expect(verifyThinking({ key, model, thinking, signature })).toBe(true);
      expect(verifyThinking({ key, model, thinking: `${thinking} `, signature })).toBe(false);
      expect(verifyThinking({ key, model: 'claude-sim-haiku', thinking, signature })).toBe(false);
      expect(verifyThinking({ key: 'other', model, thinking, signature })).toBe(false);
      expect(verifyThinking({ key, model, thinking, signature: signature.slice(0, -2) + 'AA' })).toBe(false);
    }
  });

  it('verifies a signature it did not mint in this process (another worker or a saved run) by its HMAC', () => {
    const text = 'minted elsewhere, then forgotten';
    const signature = signThinking({ key, model, thinking: text });
    // Push it out of the remembered set; verification must still hold by the HMAC alone.
    for (let i = 0; i < 1_500; i++) signThinking({ key, model, thinking: `filler ${i}` });
    expect(verifyThinking({ key, model, thinking: text, signature })).toBe(true);
    expect(verifyThinking({ key, model, thinking: text.toUpperCase(), signature })).toBe(false);
  });

  it('checks long thoughts (not remembered) and lookalike keys and models by their own HMAC', () => {
    const long = 'x'.repeat(10_000);
    const signature = signThinking({ key, model, thinking: long });
    expect(verifyThinking({ key, model, thinking: long, signature })).toBe(true);
    expect(verifyThinking({ key, model, thinking: long.slice(1), signature })).toBe(false);
    const a = signThinking({ key: 'ab', model: 'c', thinking: 't' });
    expect(verifyThinking({ key: 'a', model: 'bc', thinking: 't', signature: a })).toBe(false);
  });
});
