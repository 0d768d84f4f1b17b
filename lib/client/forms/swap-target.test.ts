import { describe, expect, it } from 'vitest';
import { isCurrentTarget } from './swap-target';

describe('isCurrentTarget', () => {
  it('recognises the vendor and model already answering (after a swap, the picker still shows them)', () => {
    expect(
      isCurrentTarget('sim-deepseek/deepseek-sim-reasoner', 'sim-deepseek', 'deepseek-sim-reasoner'),
    ).toBe(true);
    expect(isCurrentTarget('sim-openai/gpt-sim-4o', 'sim-openai', ' gpt-sim-4o ')).toBe(true);
  });

  it('lets a different vendor, or another model of the same vendor, take over', () => {
    expect(isCurrentTarget('sim-anthropic/claude-sim-sonnet', 'sim-deepseek', 'deepseek-sim-reasoner')).toBe(
      false,
    );
    expect(isCurrentTarget('sim-anthropic/claude-sim-sonnet', 'sim-anthropic', 'claude-sim-haiku')).toBe(
      false,
    );
  });

  it('never blocks an OpenAI-compatible target, nor a swap before the run has said who answers', () => {
    expect(isCurrentTarget('openai-compatible/m', 'openai-compatible', 'm')).toBe(false);
    expect(isCurrentTarget(undefined, 'sim-openai', 'gpt-sim-4o')).toBe(false);
  });
});
