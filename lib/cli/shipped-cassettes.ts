import { randomUUID } from 'node:crypto';
import { buildCassette, createExchangeKeeper } from '@/lib/cassettes';
import { RunConfigSchema, vendorDefaults, type Cassette, type RunConfigInput } from '@/lib/protocol';
import { launchRun } from '@/lib/runtime/launch-run';

/** Where the shipped cassettes live, from the project root; `npm run cassettes` rewrites them. */
export const SHIPPED_CASSETTE_DIR = 'cassettes';

/**
 * The cassettes the repository ships: each recorded from one of Loop Lab's strict simulated
 * vendors (real wire formats through the real SDKs, a scripted model) on the virtual clock, so a
 * rerun writes the same bytes. They are labelled as simulated in the file itself. Their tasks
 * are answered by reading, not by the check sandbox, whose time limit a loaded machine can hit.
 */
export const SHIPPED_CASSETTES: ReadonlyArray<{ name: string; config: RunConfigInput; what: string }> = [
  {
    name: 'explain-project.sim-anthropic',
    what: 'a three-turn session in the Anthropic Messages dialect: list the files, read the README, answer; then the title call',
    config: {
      provider: { vendor: 'sim-anthropic' },
      task: 'Explain what this project does and where its tests live.',
      clock: 'virtual',
      seed: 11,
    },
  },
  {
    name: 'explain-project.sim-openai',
    what: 'the same session in the OpenAI Chat Completions dialect',
    config: {
      provider: { vendor: 'sim-openai' },
      task: 'Explain what this project does and where its tests live.',
      clock: 'virtual',
      seed: 11,
    },
  },
];

/** Records one shipped cassette: the run on the virtual clock with its traffic kept. */
export async function recordShippedCassette(spec: (typeof SHIPPED_CASSETTES)[number]): Promise<Cassette> {
  const config = RunConfigSchema.parse(spec.config);
  const kept = createExchangeKeeper();
  const handle = launchRun({ runId: randomUUID(), config, onEvent: () => {}, onExchange: kept.keep });
  await handle.done;
  return buildCassette({
    exchanges: kept.exchanges,
    vendor: config.provider.vendor,
    model: config.provider.model || vendorDefaults(config.provider.vendor).model,
    note: `${spec.what} (npm run cassettes; scenario ${config.scenario}, preset ${config.preset}, seed ${config.seed})`,
    clock: config.clock,
    config,
    truncated: kept.truncated,
  });
}

/** A cassette file's text as the script writes it. */
export function cassetteText(cassette: Cassette): string {
  return `${JSON.stringify(cassette, null, 1)}\n`;
}
