import { createHmac, timingSafeEqual } from 'node:crypto';

/** The simulated vendor's own secret; a fixed default keeps signatures reproducible. */
export const DEFAULT_SIGNING_KEY = 'loop-lab-sim-anthropic';

/**
 * A thinking signature bound to the model and the exact thinking text, as the real vendor's
 * is: a block edited, re-serialized or replayed into another model's conversation fails.
 */
export function signThinking(options: { key: string; model: string; thinking: string }): string {
  return createHmac('sha256', options.key).update(`${options.model}\n${options.thinking}`).digest('base64');
}

export function verifyThinking(options: { key: string; model: string; thinking: string; signature: string }): boolean {
  const expected = Buffer.from(signThinking(options));
  const given = Buffer.from(options.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
