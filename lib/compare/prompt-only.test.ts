import { describe, expect, it } from 'vitest';
import { RunConfigSchema, type RunConfigInput } from '@/lib/protocol';
import { promptOnlyDifference, promptsUnreadBySimulation } from './prompt-only';

const config = (input: Partial<RunConfigInput> = {}) =>
  RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, seed: 5, ...input });

describe('promptOnlyDifference', () => {
  it('names the prompt texts two runs on a simulated vendor differ in, when nothing else differs', () => {
    expect(promptOnlyDifference(config(), config({ system: 'Be terse.' }))).toEqual({
      fields: ['system prompt'],
    });
    expect(
      promptOnlyDifference(
        config({ toolDescriptions: { read_file: 'Reads.' } }),
        config({ promptSet: { name: 'terse', version: 2 }, system: 'Be terse.' }),
      ),
    ).toEqual({
      fields: ['system prompt', 'tool descriptions', 'prompt set'],
    });
  });

  it('is null when anything else differs too, including the task (the simulated model reads the task)', () => {
    expect(promptOnlyDifference(config(), config({ system: 'Be terse.', seed: 6 }))).toBeNull();
    expect(promptOnlyDifference(config(), config({ task: 'Fix the other bug.' }))).toBeNull();
    expect(promptOnlyDifference(config(), config())).toBeNull();
  });

  it('is null when a real vendor is in play: there a prompt can change what the model does', () => {
    const real = (system?: string) =>
      config({ provider: { vendor: 'anthropic' }, ...(system ? { system } : {}) });
    expect(promptOnlyDifference(real(), real('Be terse.'))).toBeNull();
    const swapped = (system?: string) =>
      config({ swaps: [{ vendor: 'openai', atTurn: 3 }], ...(system ? { system } : {}) });
    expect(promptOnlyDifference(swapped(), swapped('Be terse.'))).toBeNull();
    // A swap by control message is not in the config: the caller passes the vendors the run moved to.
    expect(promptOnlyDifference(config(), config({ system: 'Be terse.' }), ['openai'])).toBeNull();
  });
});

describe('promptsUnreadBySimulation', () => {
  it('names the prompt texts a config sets for a simulated vendor, and nothing for a real one or none set', () => {
    expect(
      promptsUnreadBySimulation({
        provider: { vendor: 'sim-openai' },
        system: 'Be terse.',
        toolDescriptions: {},
      }),
    ).toEqual({ fields: ['system prompt'] });
    expect(
      promptsUnreadBySimulation({ provider: { vendor: 'sim-openai' }, system: '  ', toolDescriptions: {} }),
    ).toBeNull();
    expect(promptsUnreadBySimulation({ provider: { vendor: 'openai' }, system: 'Be terse.' })).toBeNull();
  });
});
