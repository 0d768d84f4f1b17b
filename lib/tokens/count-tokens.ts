import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';

/**
 * The one tokenizer Loop Lab uses everywhere: simulated vendors report usage with it, and the
 * engine estimates request sizes with it. o200k_base is an offline proxy for every vendor.
 */
let encoder: Tiktoken | undefined;

function getEncoder(): Tiktoken {
  encoder ??= new Tiktoken(o200k);
  return encoder;
}

const cache = new Map<string, number>();
const CACHE_LIMIT = 5_000;

/** Token count of a text. Repeated texts (a growing conversation) are counted once. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const n = getEncoder().encode(text).length;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, n);
  return n;
}
