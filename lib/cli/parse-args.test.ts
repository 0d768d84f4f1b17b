import { describe, expect, it } from 'vitest';
import { CliInputError, parseCliArgs } from './parse-args';

describe('--swap-at and takeover flags', () => {
  it('schedules swaps, repeatable, with or without a model', () => {
    const options = parseCliArgs([
      '--swap-at',
      '3:sim-openai',
      '--swap-at',
      '5:sim-anthropic:claude-sim-haiku',
      '--naive-takeover',
    ]);
    if (options === 'help') throw new Error('unexpected help');
    expect(options.config.swaps).toEqual([
      { atTurn: 3, vendor: 'sim-openai', model: '' },
      { atTurn: 5, vendor: 'sim-anthropic', model: 'claude-sim-haiku' },
    ]);
    expect(options.config.takeover).toEqual({ foreignThinking: 'drop', naive: true });
  });

  it('reaches the Responses API like the others: --provider and --swap-at name it', () => {
    const options = parseCliArgs([
      '--provider',
      'openai-responses',
      '--swap-at',
      '3:openai-responses:gpt-5-mini',
      '--swap-at',
      '4:sim-openai-responses',
    ]);
    if (options === 'help') throw new Error('unexpected help');
    expect(options.config.provider.vendor).toBe('openai-responses');
    expect(options.config.swaps).toEqual([
      { atTurn: 3, vendor: 'openai-responses', model: 'gpt-5-mini' },
      { atTurn: 4, vendor: 'sim-openai-responses', model: '' },
    ]);
  });

  it('keeps foreign thinking as a note when asked', () => {
    const options = parseCliArgs(['--foreign-thinking', 'note']);
    expect(options !== 'help' && options.config.takeover.foreignThinking).toBe('note');
  });

  it('says what to fix for a malformed swap or an unknown provider', () => {
    expect(() => parseCliArgs(['--swap-at', 'three:sim-openai'])).toThrow(
      /--swap-at: expected TURN:PROVIDER\[:MODEL\]/,
    );
    try {
      parseCliArgs(['--swap-at', '3:acme']);
      throw new Error('expected a CliInputError');
    } catch (error) {
      expect(error).toBeInstanceOf(CliInputError);
      expect((error as CliInputError).lines.join('\n')).toMatch(/config swaps\.0\.vendor: /);
    }
  });
});

describe('--cassette', () => {
  const file = 'cassettes/explain-project.sim-openai.cassette.json';
  it('starts from the config the cassette was recorded with; flags override it', () => {
    const options = parseCliArgs(['--cassette', file, '--seed', '5']);
    if (options === 'help') throw new Error('unexpected help');
    expect(options.config).toMatchObject({
      provider: { vendor: 'sim-openai', model: 'gpt-sim-4o' },
      task: 'Explain what this project does and where its tests live.',
      clock: 'virtual',
      seed: 5,
      replay: { cassette: file, offRecording: 'stop' },
    });
    expect(options.cassetteNote).toBe(
      'config from the cassette: scenario fix-failing-test, its own task, preset codesmith, seed 11, virtual clock (flags override it)',
    );
  });
});
