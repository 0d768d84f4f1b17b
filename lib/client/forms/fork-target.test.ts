import { describe, expect, it } from 'vitest';
import { RunConfigSchema, type RunConfig } from '@/lib/protocol';
import { forkTarget } from './fork-target';
import type { CallResultView } from '@/lib/run-view/run-view-state';

const result = (vendor: string, model: string): CallResultView => ({
  ts: 1,
  stopReason: 'tool_use',
  inputTokens: 10,
  outputTokens: 5,
  latencyMs: 100,
  partial: false,
  vendor,
  model,
});
const configOn = (provider: Record<string, unknown>): RunConfig => RunConfigSchema.parse({ provider });
const LOCAL = 'http://127.0.0.1:11434/v1';

describe('forkTarget: where "Fork…" goes and what it must ask for', () => {
  const compatible = configOn({
    vendor: 'openai-compatible',
    model: 'llama3.1',
    baseUrl: LOCAL,
    keySource: 'request',
  });
  const turns = [
    { iteration: 1, result: result('openai-compatible', 'llama3.1') },
    { iteration: 2, result: result('openai-compatible', 'llama3.1') },
  ];

  it('asks for the key when "same as that turn" is an OpenAI-compatible server, with the parent\'s base URL filled in', () => {
    expect(forkTarget({ turns, atTurn: 1, config: compatible, chosen: undefined })).toEqual({
      vendor: 'openai-compatible',
      model: 'llama3.1',
      needsKey: true,
      baseUrl: LOCAL,
    });
    // Picked explicitly, the same: the server keeps the parent's address on the parent's vendor.
    expect(forkTarget({ turns, atTurn: 1, config: compatible, chosen: 'openai-compatible' })).toMatchObject({
      needsKey: true,
      baseUrl: LOCAL,
    });
  });

  it('asks for no key and keeps no address when the fork goes to a simulated vendor', () => {
    expect(forkTarget({ turns, atTurn: 2, config: compatible, chosen: 'sim-openai' })).toEqual({
      vendor: 'sim-openai',
      model: 'gpt-sim-4o',
      needsKey: false,
      baseUrl: '',
    });
  });

  it('follows the vendor that answered the chosen turn, not the one the run started or ended on', () => {
    // Started simulated, swapped to real Anthropic for turn 2.
    const config = configOn({ vendor: 'sim-anthropic' });
    const swapped = [
      { iteration: 1, result: result('sim-anthropic', 'claude-sim-sonnet') },
      { iteration: 2, result: result('anthropic', 'claude-sonnet-4-5') },
      { iteration: 3 },
    ];
    expect(forkTarget({ turns: swapped, atTurn: 1, config, chosen: undefined })).toMatchObject({
      vendor: 'sim-anthropic',
      needsKey: false,
    });
    // Turn 3 has no kept response: the vendor in force is the one that answered turn 2.
    for (const atTurn of [2, 3]) {
      expect(forkTarget({ turns: swapped, atTurn, config, chosen: undefined })).toEqual({
        vendor: 'anthropic',
        model: 'claude-sonnet-4-5',
        needsKey: true,
        baseUrl: '',
      });
    }
  });

  it('falls back to how the run started before any turn answered, and leaves an unknown vendor to the server', () => {
    expect(
      forkTarget({
        turns: [],
        atTurn: undefined,
        config: configOn({ vendor: 'openai', model: 'gpt-4o' }),
        chosen: undefined,
      }),
    ).toMatchObject({
      vendor: 'openai',
      model: 'gpt-4o',
      needsKey: true,
    });
    const imported = [{ iteration: 1, result: result('acme-llm', 'acme-1') }];
    expect(forkTarget({ turns: imported, atTurn: 1, config: undefined, chosen: undefined })).toEqual({
      vendor: undefined,
      model: 'acme-1',
      needsKey: false,
      baseUrl: '',
    });
  });
});
