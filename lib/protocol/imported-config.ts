import { RunConfigSchema, type RunConfig } from './config';

/**
 * The scenario id an imported trace is stored under when it carries no Loop Lab config (a plain
 * tracer's JSONL, another agent's OTLP trace): the importer writes it, and the page reads it as
 * "no config to run again" rather than offering Re-run with a config the run never had.
 */
export const IMPORTED_SCENARIO = 'imported';

/** The run config such a trace is shown under: minimal, valid, and marked as imported. */
export function importedConfig(): RunConfig {
  return RunConfigSchema.parse({
    provider: { vendor: 'sim-anthropic' },
    scenario: IMPORTED_SCENARIO,
    preset: 'naive',
  });
}

/** Was this config recovered from the run, or is it the importer's placeholder? */
export function isPlaceholderConfig(config: RunConfig): boolean {
  return config.scenario === IMPORTED_SCENARIO;
}
