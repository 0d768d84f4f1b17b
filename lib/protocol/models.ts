import type { Dialect, Vendor } from './vendors';

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
  /** Emits thinking (Anthropic) or reasoning_content (OpenAI-compatible). */
  reasoning: boolean;
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
  },
];

/** Each vendor's default model and its fallback (used by the fallback-model mechanism). */
export const VENDOR_DEFAULTS: Record<Vendor, { model: string; fallback: string }> = {
  'sim-anthropic': { model: 'claude-sim-sonnet', fallback: 'claude-sim-haiku' },
  'sim-openai': { model: 'gpt-sim-4o', fallback: 'gpt-sim-mini' },
  'sim-deepseek': { model: 'deepseek-sim-reasoner', fallback: 'deepseek-sim-chat' },
  anthropic: { model: 'claude-sonnet-4-6', fallback: 'claude-haiku-4-5' },
  openai: { model: 'gpt-4o', fallback: 'gpt-4o-mini' },
  'openai-compatible': { model: 'deepseek-chat', fallback: 'deepseek-chat' },
};

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

/** Cost of one call; unknown models are priced at zero rather than guessed. */
export function costUsd(model: string, inputTokens: number, outputTokens: number): number {
  const info = findModel(model);
  if (!info) return 0;
  return (inputTokens * info.inputPrice + outputTokens * info.outputPrice) / 1_000_000;
}
