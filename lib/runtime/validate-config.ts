import { dialectOf, findModel, isSimulated, SIM_MODELS, VENDOR_DEFAULTS, type RunConfig } from '@/lib/protocol';
import { ProviderConfigError, resolveClientConfig } from '@/lib/providers';
import { getScenario, listScenarios } from '@/lib/tools';

/**
 * Checks a parsed config against what this installation can run, beyond its schema: the
 * scenario exists, a simulated vendor is asked for one of its own models, a real vendor has
 * a key and an address that key may go to (lib/providers/client-config.ts decides). Each
 * problem is a line naming the field and what to do.
 */
export function validateRunConfig(options: { config: RunConfig; apiKey?: string; env?: Record<string, string | undefined> }): string[] {
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
  }
  if (config.provider.keySource === 'request' && !apiKey) {
    problems.push('apiKey: keySource is "request" but no key was sent');
  }
  // The same rule the provider is built with, so a run that passes here cannot die later
  // for want of a key or an address.
  try {
    resolveClientConfig({ vendor, ...(config.provider.baseUrl ? { baseUrl: config.provider.baseUrl } : {}), ...(apiKey ? { apiKey } : {}), env });
  } catch (error) {
    if (!(error instanceof ProviderConfigError)) throw error;
    problems.push(`${error.field}: ${error.message}`);
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
