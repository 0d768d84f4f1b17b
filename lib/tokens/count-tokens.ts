import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * The one tokenizer Loop Lab uses everywhere: simulated vendors report usage with it, and the
 * engine estimates request sizes with it. o200k_base is an offline proxy for every vendor.
 *
 * gpt-tokenizer, not js-tiktoken: the same o200k_base counts (checked text for text over every
 * source file of the project), but loading its tables costs about a quarter of the time and a
 * third of the memory, and every sweep worker thread loads its own copy (js-tiktoken's took
 * ~150 MB and seconds of CPU per thread; see README "Benchmarks").
 */
const cache = new Map<string, number>();
const CACHE_LIMIT = 5_000;

/** Token count of a text. Repeated texts (a growing conversation) are counted once. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const n = encode(text).length;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, n);
  return n;
}

/**
 * A fast estimate (about four characters a token, the usual rule for English and code) for
 * the engine's own bookkeeping on the hot path, where an exact BPE count of every request
 * would cost more than streaming the response. Vendors (real or simulated) report the exact
 * usage; this only sizes requests before they are sent.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
