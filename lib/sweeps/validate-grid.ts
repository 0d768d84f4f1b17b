import { findModel, type SweepGrid, type SweepSummary } from '@/lib/protocol';
import { checkVendorTarget } from '@/lib/runtime/validate-config';
import { getScenario, listScenarios } from '@/lib/tools';
import { NO_KEYS_ON_QUEUE } from './queue-keys';
import { promptSetLabel, type PromptSetLookup } from './expand-grid';
import { processEnv } from '@/lib/config/server-env';
import { gateFilterProblems } from './gates';

export interface ValidateSweepOptions {
  /** Keys sent with the sweep, by endpoint id. */
  apiKeys?: Readonly<Record<string, string>>;
  /** Where this process's sweeps run: on BullMQ a key sent with the sweep cannot reach the workers. */
  runnerKind?: SweepSummary['runner'];
  /** Reads the saved prompt-set versions (absent: a grid with a prompt axis is refused). */
  promptSets?: PromptSetLookup;
  env?: Record<string, string | undefined>;
}

/**
 * Beyond the schema: does this installation have every scenario the grid names, can each
 * endpoint be reached with the key it would use (the same rules as a run's: a base URL the
 * environment does not name needs a key sent with the sweep; a loopback or private one must be
 * allowed by the environment), does each target serve each model, does each prompt-set version
 * exist, and can the cost cap bound every run. Each problem is a line naming the field.
 */
export function validateSweepGrid(grid: SweepGrid, options: ValidateSweepOptions = {}): string[] {
  const env = options.env ?? processEnv();
  const apiKeys = options.apiKeys ?? {};
  const problems = grid.scenarios
    .filter((id) => !getScenario(id))
    .map(
      (id) =>
        `scenarios: unknown scenario "${id}"; choose from ${listScenarios()
          .map((s) => s.id)
          .join(', ')}`,
    );
  for (const task of grid.tasks ?? []) {
    const id = task.id ?? task.dir;
    if (grid.scenarios.includes(id) || (grid.tasks ?? []).filter((t) => (t.id ?? t.dir) === id).length > 1)
      problems.push(
        `tasks: "${id}" names two entries of the scenario axis; give each task folder its own id`,
      );
  }
  const models: string[] = grid.models ?? [''];
  for (const vendor of grid.vendors) {
    for (const model of models) {
      for (const p of checkVendorTarget({ target: { vendor, model }, clock: 'virtual', env })) {
        if (p.startsWith('model')) problems.push(`models: ${p.slice('model: '.length)}`);
      }
    }
  }
  grid.endpoints.forEach((endpoint, i) => {
    const apiKey = apiKeys[endpoint.id];
    if (endpoint.keySource === 'request' && apiKey === undefined) {
      problems.push(
        `apiKeys.${endpoint.id}: endpoint "${endpoint.id}" takes its key from the request (keySource "request") but none was sent`,
      );
    }
    if (endpoint.keySource === 'env' && apiKey !== undefined) {
      problems.push(
        `apiKeys.${endpoint.id}: endpoint "${endpoint.id}" takes its key from the server's environment; set keySource "request" to use this one`,
      );
    }
    if (endpoint.keySource === 'request' && options.runnerKind === 'bullmq')
      problems.push(`endpoints.${i}.keySource: ${NO_KEYS_ON_QUEUE}`);
    if (grid.replayFrom !== undefined) return; // served from cassettes: no key, no address
    const seen = new Set<string>();
    for (const model of models) {
      const target = {
        vendor: endpoint.vendor,
        model,
        ...(endpoint.baseUrl ? { baseUrl: endpoint.baseUrl } : {}),
        ...(endpoint.keySource === 'request' && apiKey ? { apiKey } : {}),
      };
      for (const p of checkVendorTarget({ target, clock: 'real', env })) {
        const line = `endpoints.${i}.${p.replace(/^apiKey/, 'keySource')}`;
        if (!seen.has(line)) problems.push(line);
        seen.add(line);
      }
    }
  });
  for (const id of Object.keys(apiKeys)) {
    if (!grid.endpoints.some((e) => e.id === id))
      problems.push(`apiKeys.${id}: the grid has no endpoint "${id}"`);
  }
  for (const ref of grid.promptSets ?? []) {
    if (!options.promptSets?.(ref))
      problems.push(
        `promptSets: there is no saved prompt set "${ref.name}" version ${ref.version} (${promptSetLabel(ref)})`,
      );
  }
  if (grid.costCapUsd !== undefined) {
    for (const model of new Set(grid.models ?? [])) {
      if (!findModel(model))
        problems.push(
          `costCapUsd: Loop Lab has no price for model "${model}", so no cap can bound its runs; leave the cap out or choose a priced model`,
        );
    }
  }
  problems.push(...gateFilterProblems(grid));
  return problems;
}
