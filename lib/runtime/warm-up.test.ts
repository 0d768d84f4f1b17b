import { describe, expect, it } from 'vitest';
import { warmUp } from './warm-up';

describe('warmUp', () => {
  it('pays the one-time costs once, before a real-clock run would start its clock', async () => {
    const first = warmUp();
    expect(warmUp()).toBe(first);
    const report = await first;
    // Once per process: a later caller gets the same report, nothing runs again.
    await expect(warmUp()).resolves.toBe(report);
    expect(report.steps).toEqual(['tokenizer', 'sim-anthropic', 'sim-openai', 'sim-openai-responses']);
    expect(report.wallMs).toBeGreaterThan(0);
  });
});
