import { describe, expect, it } from 'vitest';
import { presetPolicy, resolveRecovery, RunConfigSchema } from '@/lib/protocol';
import { checkVendorTarget, validateRunConfig } from './validate-config';

describe('the clock a run asks for, against its vendor', () => {
  it('the virtual and paced clocks drive simulated vendors; on a real vendor each is refused, naming the clock and what to use', () => {
    for (const clock of ['virtual', 'paced'] as const) {
      expect(
        validateRunConfig({
          config: RunConfigSchema.parse({ provider: { vendor: 'sim-openai' }, clock, timeScale: 0.05 }),
          env: {},
        }),
      ).toEqual([]);
      const problems = checkVendorTarget({
        target: { vendor: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'sk-ant-test' },
        clock,
        env: {},
      });
      expect(problems).toEqual([
        `clock: the ${clock} clock only drives simulated vendors and replays (real network time cannot jump); use "real" with a time scale`,
      ]);
    }
    expect(
      checkVendorTarget({
        target: { vendor: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'sk-ant-test' },
        clock: 'real',
        env: {},
      }),
    ).toEqual([]);
  });
});

describe('a retry policy’s models', () => {
  it('each model of the chain and the context-window model must be one the vendor serves, named where it is', () => {
    const policy = {
      ...presetPolicy(resolveRecovery('s11')),
      contextWindow: { model: 'claude-sim-huge' },
    };
    policy.fallback = { ...policy.fallback, chain: [{ model: 'claude-sim-haiku' }, { model: 'gpt-sim-4o' }] };
    const problems = validateRunConfig({
      config: RunConfigSchema.parse({
        provider: { vendor: 'sim-anthropic' },
        preset: 's11',
        recovery: { policy },
      }),
      env: {},
    });
    expect(problems).toEqual([
      expect.stringMatching(
        /^recovery\.policy\.fallback\.chain\.1\.model: the simulated vendor sim-anthropic serves .*"gpt-sim-4o" is not one of them$/,
      ),
      expect.stringMatching(
        /^recovery\.policy\.contextWindow\.model: .*"claude-sim-huge" is not one of them$/,
      ),
    ]);
  });
});
