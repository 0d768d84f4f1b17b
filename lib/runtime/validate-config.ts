import {
  findModel,
  isSimulated,
  modelsOf,
  vendorDefaults,
  vendorIds,
  VendorSchema,
  type RunConfig,
  type Vendor,
} from '@/lib/protocol';
import { ProviderConfigError, resolveClientConfig } from '@/lib/providers';
import { getScenario, listScenarios, TOOL_NAMES } from '@/lib/tools';
import { processEnv } from '@/lib/config/server-env';

/** A plausible model id for a real vendor: what vendors and local servers name their models with. */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,199}$/;

/**
 * Checks a parsed config against what this installation can run, beyond its schema: the
 * scenario exists, a simulated vendor is asked for one of its own models, a real vendor has
 * a key and an address that key may go to (lib/providers/client-config.ts decides). Each
 * problem is a line naming the field and what to do.
 */
export function validateRunConfig(options: {
  config: RunConfig;
  apiKey?: string;
  env?: Record<string, string | undefined>;
}): string[] {
  const { config, apiKey } = options;
  const env = options.env ?? processEnv();
  const problems: string[] = [];
  // A task folder (CLI and sweeps) or an uploaded one is its own scenario: the workbench reads it, checked against its pin.
  if (config.taskDir && config.taskUpload)
    problems.push(
      'taskUpload: a run works on one task; give taskDir (a folder on disk) or taskUpload, not both',
    );
  if (!config.taskDir && !config.taskUpload && !getScenario(config.scenario)) {
    problems.push(
      `scenario: unknown scenario "${config.scenario}"; choose one of ${listScenarios()
        .map((s) => s.id)
        .join(', ')}`,
    );
  }
  const { vendor, model } = config.provider;
  const target = {
    vendor,
    model,
    ...(config.provider.baseUrl ? { baseUrl: config.provider.baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
  };
  // The same rule the provider is built with, so a run that passes here cannot die later
  // for want of a key or an address.
  // A replay's requests never leave the process: the cassette answers them, so no key or address is needed, and the virtual (or paced) clock is fine.
  if (!config.replay) {
    problems.push(
      ...checkVendorTarget({ target, clock: config.clock, env }).map((p) =>
        p.startsWith('apiKey') || p.startsWith('clock') ? p : `provider.${p}`,
      ),
    );
  }
  problems.push(...checkFallbackModel(config.recovery.fallback ?? {}, vendor, 'recovery.fallback'));
  // A retry policy's chain and context-window models, by the same rule.
  const policy = config.recovery.policy;
  policy?.fallback.chain.forEach((m, i) => {
    problems.push(...checkFallbackModel(m, vendor, `recovery.policy.fallback.chain.${i}`));
  });
  if (policy?.contextWindow) {
    problems.push(...checkFallbackModel(policy.contextWindow, vendor, 'recovery.policy.contextWindow'));
  }
  if (config.provider.keySource === 'request' && !apiKey && !config.replay) {
    problems.push('apiKey: keySource is "request" but no key was sent');
  }
  config.swaps.forEach((swap, i) => {
    problems.push(
      ...checkVendorTarget({ target: swap, clock: config.clock, env }).map((p) => `swaps.${i}.${p}`),
    );
  });
  for (const name of Object.keys(config.toolDescriptions ?? {})) {
    if (!(TOOL_NAMES as readonly string[]).includes(name)) {
      problems.push(`toolDescriptions.${name}: no such tool; the tools are ${TOOL_NAMES.join(', ')}`);
    }
  }
  if (config.policy && !isSimulated(vendor)) {
    problems.push(
      'policy: a simulated model policy only applies to simulated vendors; remove it or pick sim-anthropic / sim-openai',
    );
  }
  return problems;
}

/**
 * Whether a run can go to this vendor and model here: a simulated vendor serves only its own
 * models; a real one needs what its client needs (the same rule the provider applies, so a
 * run is never created only to die without a run_start); real network time cannot be
 * virtual or paced. Lines name the field (`model`, `vendor`, `baseUrl`, `apiKey`).
 */
export function checkVendorTarget(options: {
  target: { vendor: Vendor; model: string; baseUrl?: string; apiKey?: string };
  clock: RunConfig['clock'];
  env?: Record<string, string | undefined>;
}): string[] {
  const { target, clock } = options;
  const { vendor, model } = target;
  const problems: string[] = [];
  if (isSimulated(vendor)) {
    const own = modelsOf(vendor).map((m) => m.id);
    if (model && !own.includes(model)) {
      problems.push(
        `model: the simulated vendor ${vendor} serves ${own.join(', ')}; "${model}" is not one of them`,
      );
    }
  }
  try {
    resolveClientConfig({
      vendor,
      baseUrl: target.baseUrl,
      apiKey: target.apiKey,
      env: options.env ?? processEnv(),
    });
  } catch (error) {
    if (!(error instanceof ProviderConfigError)) throw error;
    problems.push(`${error.field.replace(/^provider\./, '')}: ${error.message}`);
  }
  if (clock !== 'real' && !isSimulated(vendor)) {
    problems.push(
      `clock: the ${clock} clock only drives simulated vendors and replays (real network time cannot jump); use "real" with a time scale`,
    );
  }
  return problems;
}

/** The model a run starts on: the configured one, else the vendor's default. */
export function effectiveModel(config: RunConfig): string {
  return config.provider.model || vendorDefaults(config.provider.vendor).model;
}

/**
 * A model the run may move to (the fallback, a policy's chain or context-window model): its
 * vendor exists, and a simulated vendor serves it; a real one's looks like a model id. A
 * cross-vendor model is served by that vendor, not the run's own. '' is the vendor's fallback.
 */
function checkFallbackModel(
  target: { model?: string | undefined; vendor?: string | undefined },
  vendor: Vendor,
  at: string,
): string[] {
  const problems: string[] = [];
  const fallback = target.model;
  const fallbackVendorName = target.vendor?.trim();
  const fallbackVendor = fallbackVendorName ? VendorSchema.safeParse(fallbackVendorName) : undefined;
  if (fallbackVendor && !fallbackVendor.success) {
    problems.push(
      `${at}.vendor: no vendor "${fallbackVendorName}"; the vendors are ${vendorIds().join(', ')}`,
    );
  }
  const servedBy = fallbackVendor?.success ? fallbackVendor.data : vendor;
  if (fallback && (!fallbackVendor || fallbackVendor.success)) {
    if (isSimulated(servedBy)) {
      const own = modelsOf(servedBy).map((m) => m.id);
      if (!own.includes(fallback)) {
        problems.push(
          `${at}.model: the simulated vendor ${servedBy} serves ${own.join(', ')}; "${fallback}" is not one of them`,
        );
      }
    } else if (!MODEL_ID.test(fallback)) {
      problems.push(
        `${at}.model: "${fallback}" does not look like a model id (letters, digits and . _ : / -, e.g. claude-haiku-4-5)`,
      );
    }
  }
  return problems;
}

/** The model the fallback mechanism switches to. */
export function fallbackModelFor(config: RunConfig): string {
  return fallbackModelOf(config.provider.vendor);
}

/** A vendor's fallback model (a simulated vendor's only when it serves it). */
export function fallbackModelOf(vendor: Vendor): string {
  const fallback = vendorDefaults(vendor).fallback;
  return findModel(fallback) || !isSimulated(vendor) ? fallback : '';
}
