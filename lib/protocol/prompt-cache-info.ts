/**
 * A vendor's prompt cache, as documented. Anthropic caches what `cache_control` breakpoints
 * mark (a write costs more than plain input, a read a tenth); OpenAI caches every long prompt's
 * prefix on its own (no write price) and reads it at a discount.
 */
export interface PromptCacheInfo {
  /** `breakpoints`: only prefixes a request marks; `automatic`: every prompt's prefix. */
  kind: 'breakpoints' | 'automatic';
  /** Shortest prefix (in tokens) the vendor caches; a shorter one is processed as plain input. */
  minTokens: number;
  /** Cache hits are counted in steps of this many tokens past the minimum (OpenAI: 128; Anthropic: 1, any length). */
  stepTokens: number;
  /** Run time a cached prefix lives without a hit; each hit refreshes it. */
  ttlMs: number;
  /** USD per million tokens written to the cache (automatic caches charge plain input). */
  writePrice: number;
  /** USD per million tokens read from the cache. */
  readPrice: number;
}

const FIVE_MINUTES = 5 * 60_000;

/** Anthropic: breakpoints, 5-minute TTL refreshed on a hit, writes 1.25× input, reads 0.1×. */
export function anthropicCache(inputPrice: number, minTokens: number): PromptCacheInfo {
  return {
    kind: 'breakpoints',
    minTokens,
    stepTokens: 1,
    ttlMs: FIVE_MINUTES,
    writePrice: inputPrice * 1.25,
    readPrice: inputPrice * 0.1,
  };
}

/**
 * OpenAI-style automatic caching: prompts of 1,024 tokens and more, hits in 128-token steps, kept
 * for 5 to 10 minutes without use (the shorter end modelled); `readShare` of the input price.
 */
export function automaticCache(inputPrice: number, readShare: number): PromptCacheInfo {
  return {
    kind: 'automatic',
    minTokens: 1024,
    stepTokens: 128,
    ttlMs: FIVE_MINUTES,
    writePrice: inputPrice,
    readPrice: inputPrice * readShare,
  };
}
