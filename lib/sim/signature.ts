import { createHmac, timingSafeEqual } from 'node:crypto';

/** The simulated vendor's own secret; a fixed default keeps signatures reproducible. */
export const DEFAULT_SIGNING_KEY = 'loop-lab-sim-anthropic';

/**
 * Signatures this process minted or already verified, by exactly what they sign (key, model,
 * text). Every request carries the whole conversation back, so without this each thinking
 * block is re-hashed once per later turn, and a sweep signs the same thoughts run after run.
 * The HMAC is a pure function of that key, so a hit is exactly the hash it saves. Bounded:
 * the oldest entries go first, so a worker running thousands of runs stays small.
 */
const known = new Map<string, string>();
const MAX_KNOWN = 1_024;
/** Longer thoughts are hashed every time: at most ~8 MB of text is ever kept. */
const MAX_KNOWN_CHARS = 4_096;

/** Length-prefixed, so no two (key, model, text) triples share an id. */
const knownKey = (o: { key: string; model: string; thinking: string }): string =>
  `${o.key.length}:${o.key}${o.model.length}:${o.model}${o.thinking}`;

function remember(id: string, signature: string): void {
  if (id.length > MAX_KNOWN_CHARS) return;
  known.delete(id);
  known.set(id, signature);
  if (known.size > MAX_KNOWN) known.delete(known.keys().next().value!);
}

function hmac(options: { key: string; model: string; thinking: string }): string {
  return createHmac('sha256', options.key).update(`${options.model}\n${options.thinking}`).digest('base64');
}

/**
 * A thinking signature bound to the model and the exact thinking text, as the real vendor's
 * is: a block edited, re-serialized or replayed into another model's conversation fails.
 */
export function signThinking(options: { key: string; model: string; thinking: string }): string {
  const id = knownKey(options);
  const signature = known.get(id) ?? hmac(options);
  remember(id, signature);
  return signature;
}

export function verifyThinking(options: {
  key: string;
  model: string;
  thinking: string;
  signature: string;
}): boolean {
  const id = knownKey(options);
  if (known.get(id) === options.signature) return true;
  const expected = Buffer.from(hmac(options));
  const given = Buffer.from(options.signature);
  const valid = expected.length === given.length && timingSafeEqual(expected, given);
  if (valid) remember(id, options.signature);
  return valid;
}
