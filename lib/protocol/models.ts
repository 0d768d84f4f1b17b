import { anthropicCache, automaticCache, type PromptCacheInfo } from './prompt-cache-info';
import type { Dialect, Vendor } from './vendors';

export type { PromptCacheInfo } from './prompt-cache-info';

/**
 * What Loop Lab knows about models: context window, output cap and price. Simulated models
 * have small windows so a demo can reach them; their prices mirror real ones so costs read
 * plausibly.
 */
export interface ModelInfo {
  id: string;
  label: string;
  /** The vendor that serves it (a simulated vendor serves only its own models). */
  vendor: Vendor;
  dialect: Dialect;
  contextWindow: number;
  maxOutputTokens: number;
  /** USD per million tokens. */
  inputPrice: number;
  outputPrice: number;
  /** Emits thinking (Anthropic), reasoning_content (OpenAI-compatible) or reasoning items (Responses). */
  reasoning: boolean;
  /** The vendor's prompt cache for this model: its rule and its prices. */
  cache: PromptCacheInfo;
}

export const SIM_MODELS: readonly ModelInfo[] = [
  {
    id: 'claude-sim-sonnet',
    label: 'Claude Sim Sonnet',
    vendor: 'sim-anthropic',
    dialect: 'anthropic',
    contextWindow: 32_000,
    maxOutputTokens: 64_000,
    inputPrice: 3,
    outputPrice: 15,
    reasoning: true,
    cache: anthropicCache(3, 1024),
  },
  {
    id: 'claude-sim-haiku',
    label: 'Claude Sim Haiku',
    vendor: 'sim-anthropic',
    dialect: 'anthropic',
    contextWindow: 12_000,
    maxOutputTokens: 8_192,
    inputPrice: 1,
    outputPrice: 5,
    reasoning: true,
    cache: anthropicCache(1, 2048),
  },
  // Small windows for the context lessons: a growing conversation reaches them in a few turns.
  {
    id: 'claude-sim-16k',
    label: 'Claude Sim 16k (small window)',
    vendor: 'sim-anthropic',
    dialect: 'anthropic',
    contextWindow: 16_000,
    maxOutputTokens: 8_192,
    inputPrice: 1,
    outputPrice: 5,
    reasoning: true,
    cache: anthropicCache(1, 2048),
  },
  {
    id: 'gpt-sim-4o',
    label: 'GPT Sim 4o',
    vendor: 'sim-openai',
    dialect: 'openai',
    contextWindow: 32_000,
    maxOutputTokens: 16_384,
    inputPrice: 2.5,
    outputPrice: 10,
    reasoning: false,
    cache: automaticCache(2.5, 0.5),
  },
  {
    id: 'gpt-sim-mini',
    label: 'GPT Sim mini',
    vendor: 'sim-openai',
    dialect: 'openai',
    contextWindow: 12_000,
    maxOutputTokens: 16_384,
    inputPrice: 0.15,
    outputPrice: 0.6,
    reasoning: false,
    cache: automaticCache(0.15, 0.5),
  },
  {
    id: 'gpt-sim-16k',
    label: 'GPT Sim 16k (small window)',
    vendor: 'sim-openai',
    dialect: 'openai',
    contextWindow: 16_000,
    maxOutputTokens: 8_192,
    inputPrice: 0.15,
    outputPrice: 0.6,
    reasoning: false,
    cache: automaticCache(0.15, 0.5),
  },
  // DeepSeek-style reasoning: OpenAI dialect, thinking streamed as reasoning_content (DeepSeek's prices).
  {
    id: 'deepseek-sim-reasoner',
    label: 'DeepSeek Sim Reasoner',
    vendor: 'sim-deepseek',
    dialect: 'openai',
    contextWindow: 32_000,
    maxOutputTokens: 32_000,
    inputPrice: 0.28,
    outputPrice: 0.42,
    reasoning: true,
    cache: automaticCache(0.28, 0.1),
  },
  {
    id: 'deepseek-sim-chat',
    label: 'DeepSeek Sim Chat',
    vendor: 'sim-deepseek',
    dialect: 'openai',
    contextWindow: 12_000,
    maxOutputTokens: 8_192,
    inputPrice: 0.28,
    outputPrice: 0.42,
    reasoning: false,
    cache: automaticCache(0.28, 0.1),
  },
  // OpenAI's Responses API: reasoning models whose reasoning comes back as encrypted items only
  // the minting model can read, and whose responses the vendor stores for previous_response_id.
  {
    id: 'gpt-sim-5',
    label: 'GPT Sim 5 (Responses)',
    vendor: 'sim-openai-responses',
    dialect: 'responses',
    contextWindow: 32_000,
    maxOutputTokens: 32_000,
    inputPrice: 1.25,
    outputPrice: 10,
    reasoning: true,
    cache: automaticCache(1.25, 0.1),
  },
  {
    id: 'gpt-sim-5-mini',
    label: 'GPT Sim 5 mini (Responses)',
    vendor: 'sim-openai-responses',
    dialect: 'responses',
    contextWindow: 12_000,
    maxOutputTokens: 16_384,
    inputPrice: 0.25,
    outputPrice: 2,
    reasoning: true,
    cache: automaticCache(0.25, 0.1),
  },
];

export const REAL_MODELS: readonly ModelInfo[] = [
  {
    id: 'claude-sonnet-4-6',
    label: 'Claude Sonnet 4.6',
    vendor: 'anthropic',
    dialect: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    inputPrice: 3,
    outputPrice: 15,
    reasoning: true,
    cache: anthropicCache(3, 2048),
  },
  {
    id: 'claude-opus-4-7',
    label: 'Claude Opus 4.7',
    vendor: 'anthropic',
    dialect: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    inputPrice: 5,
    outputPrice: 25,
    reasoning: true,
    cache: anthropicCache(5, 4096),
  },
  {
    id: 'claude-haiku-4-5',
    label: 'Claude Haiku 4.5',
    vendor: 'anthropic',
    dialect: 'anthropic',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    inputPrice: 1,
    outputPrice: 5,
    reasoning: true,
    cache: anthropicCache(1, 4096),
  },
  {
    id: 'gpt-4o',
    label: 'GPT-4o',
    vendor: 'openai',
    dialect: 'openai',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    inputPrice: 2.5,
    outputPrice: 10,
    reasoning: false,
    cache: automaticCache(2.5, 0.5),
  },
  {
    id: 'gpt-4o-mini',
    label: 'GPT-4o mini',
    vendor: 'openai',
    dialect: 'openai',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    inputPrice: 0.15,
    outputPrice: 0.6,
    reasoning: false,
    cache: automaticCache(0.15, 0.5),
  },
  {
    id: 'deepseek-chat',
    label: 'DeepSeek Chat',
    vendor: 'openai-compatible',
    dialect: 'openai',
    contextWindow: 128_000,
    maxOutputTokens: 8_192,
    inputPrice: 0.28,
    outputPrice: 0.42,
    reasoning: false,
    cache: automaticCache(0.28, 0.1),
  },
  {
    id: 'deepseek-reasoner',
    label: 'DeepSeek Reasoner',
    vendor: 'openai-compatible',
    dialect: 'openai',
    contextWindow: 128_000,
    maxOutputTokens: 64_000,
    inputPrice: 0.28,
    outputPrice: 0.42,
    reasoning: true,
    cache: automaticCache(0.28, 0.1),
  },
  {
    id: 'gpt-5',
    label: 'GPT-5 (Responses)',
    vendor: 'openai-responses',
    dialect: 'responses',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    inputPrice: 1.25,
    outputPrice: 10,
    reasoning: true,
    cache: automaticCache(1.25, 0.1),
  },
  {
    id: 'gpt-5-mini',
    label: 'GPT-5 mini (Responses)',
    vendor: 'openai-responses',
    dialect: 'responses',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    inputPrice: 0.25,
    outputPrice: 2,
    reasoning: true,
    cache: automaticCache(0.25, 0.1),
  },
];

const ALL = [...SIM_MODELS, ...REAL_MODELS];

export function findModel(id: string): ModelInfo | undefined {
  return ALL.find((m) => m.id === id);
}

/** The models a vendor is known to serve (none listed for an OpenAI-compatible server but DeepSeek's). */
export function modelsOf(vendor: Vendor): readonly ModelInfo[] {
  return ALL.filter((m) => m.vendor === vendor);
}

/** Whether Loop Lab knows a price for the model; an unknown model shows tokens and no cost. */
export function isPriced(model: string): boolean {
  return findModel(model) !== undefined;
}

/** The input tokens of one call that the vendor served from its prompt cache (read) or wrote to it. */
export interface CachedTokens {
  read: number;
  written: number;
}

/**
 * Cost of one call; unknown models are priced at zero rather than guessed. `inputTokens` is the
 * whole prompt; the part the vendor read from its cache or wrote to it is priced at the
 * model's cache rates, the rest at the input price.
 */
export function costUsd(
  model: string,
  inputTokens: number,
  outputTokens: number,
  cached?: CachedTokens,
): number {
  const info = findModel(model);
  if (!info) return 0;
  const read = cached?.read ?? 0;
  const written = cached?.written ?? 0;
  const plain = Math.max(0, inputTokens - read - written);
  return (
    (plain * info.inputPrice +
      read * info.cache.readPrice +
      written * info.cache.writePrice +
      outputTokens * info.outputPrice) /
    1_000_000
  );
}

/** What the cache saved on one call: its cost had every input token been plain input, less its cost (negative when writes cost more than reads saved). */
export function cacheSavingUsd(model: string, inputTokens: number, cached: CachedTokens): number {
  return costUsd(model, inputTokens, 0) - costUsd(model, inputTokens, 0, cached);
}
