import { dialectOf, findModel, isSimulated, SIM_MODELS, VENDOR_DEFAULTS, type RunConfig } from '@/lib/protocol';
import { getScenario, listScenarios } from '@/lib/tools';

/**
 * Checks a parsed config against what this installation can run, beyond its schema: the
 * scenario exists, a simulated vendor is asked for one of its own models, a real vendor has
 * a key and an address. Each problem is a line naming the field and what to do.
 */
export function validateRunConfig(options: { config: RunConfig; apiKey?: string; env?: NodeJS.ProcessEnv }): string[] {
  const { config, apiKey } = options;
  const env = options.env ?? process.env;
  const problems: string[] = [];
  if (!getScenario(config.scenario)) {
    problems.push(`scenario: unknown scenario "${config.scenario}"; choose one of ${listScenarios().map((s) => s.id).join(', ')}`);
  }
  const { vendor, model } = config.provider;
  const dialect = dialectOf(vendor);
  if (isSimulated(vendor)) {
    const own = SIM_MODELS.filter((m) => m.dialect === dialect).map((m) => m.id);
    if (model && !own.includes(model)) {
      problems.push(`provider.model: the simulated ${dialect} vendor serves ${own.join(', ')}; "${model}" is not one of them`);
    }
    if (config.provider.keySource === 'request' && !apiKey) {
      problems.push('apiKey: keySource is "request" but no key was sent');
    }
  } else {
    const envKey = dialect === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
    if (!apiKey && !env[envKey] && vendor !== 'openai-compatible') {
      problems.push(`apiKey: ${vendor} needs a key; set ${envKey} in the environment or send one with the run`);
    }
    if (vendor === 'openai-compatible' && !config.provider.baseUrl && !env.OPENAI_BASE_URL) {
      problems.push('provider.baseUrl: an OpenAI-compatible endpoint needs a base URL (or OPENAI_BASE_URL), e.g. http://localhost:11434/v1');
    }
  }
  if (config.clock === 'virtual' && !isSimulated(vendor)) {
    problems.push('clock: the virtual clock only drives simulated vendors (real network time cannot jump); use "real" with a time scale');
  }
  if (config.policy && !isSimulated(vendor)) {
    problems.push('policy: a simulated model policy only applies to simulated vendors; remove it or pick sim-anthropic / sim-openai');
  }
  return problems;
}

/** The model a run starts on: the configured one, else the vendor's default. */
export function effectiveModel(config: RunConfig): string {
  return config.provider.model || VENDOR_DEFAULTS[config.provider.vendor].model;
}

/** The model the fallback mechanism switches to. */
export function fallbackModelFor(config: RunConfig): string {
  const fallback = VENDOR_DEFAULTS[config.provider.vendor].fallback;
  return findModel(fallback) || !isSimulated(config.provider.vendor) ? fallback : '';
}
