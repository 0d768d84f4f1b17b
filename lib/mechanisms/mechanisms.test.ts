import { describe, expect, it } from 'vitest';
import {
  MECHANISM_IDS,
  PresetIdSchema,
  RecoveryOverridesSchema,
  RunConfigSchema,
  SweepMechanismSchema,
  resolveRecovery,
} from '@/lib/protocol';
import { MECHANISM_LIST, MECHANISMS, configWithMechanismOff, withMechanismOff } from './mechanisms';

describe('the mechanisms table', () => {
  it('has one entry per id, each with a distinct lesson slug', () => {
    expect(MECHANISM_LIST.map((m) => m.id)).toEqual([...MECHANISM_IDS]);
    for (const id of MECHANISM_IDS) expect(MECHANISMS[id].id).toBe(id);
    const slugs = MECHANISM_LIST.map((m) => m.lessonSlug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9-]+$/);
  });

  it('every recovery override is valid and changes the resolved config of a preset that has the mechanism on', () => {
    for (const id of SweepMechanismSchema.options) {
      const off = withMechanismOff({}, id);
      expect(RecoveryOverridesSchema.safeParse(off).success, id).toBe(true);
      const changed = PresetIdSchema.options.some(
        (preset) => JSON.stringify(resolveRecovery(preset, off)) !== JSON.stringify(resolveRecovery(preset)),
      );
      expect(changed, `${id} switches nothing off in any preset`).toBe(true);
    }
  });

  it('switching a mechanism off keeps the other overrides of its group and of the config', () => {
    const off = withMechanismOff({ retry: { maxRetries: 7 }, tools: { truncateChars: 10 } }, 'retry-after');
    expect(off).toEqual({ retry: { maxRetries: 7, honorRetryAfter: false }, tools: { truncateChars: 10 } });
    const config = {
      provider: { vendor: 'sim-anthropic' as const },
      seed: 42,
      recovery: { retry: { maxRetries: 7 } },
    };
    const counterfactual = RunConfigSchema.parse(configWithMechanismOff(config, 'retry'));
    expect(counterfactual.seed).toBe(42);
    expect(counterfactual.recovery).toEqual({ retry: { maxRetries: 7, enabled: false } });
  });

  it('the takeover mechanism is switched off through the run config, not the recovery overrides', () => {
    const config = RunConfigSchema.parse(
      configWithMechanismOff(
        { provider: { vendor: 'sim-anthropic' }, takeover: { foreignThinking: 'note' } },
        'takeover-handling',
      ),
    );
    expect(config.takeover).toEqual({ foreignThinking: 'note', naive: true });
    expect(config.recovery).toEqual({});
  });

  it('tool approval is switched off by dropping the config’s approval; its breakpoints stay', () => {
    const config = RunConfigSchema.parse(
      configWithMechanismOff(
        {
          provider: { vendor: 'sim-anthropic' },
          pause: {
            breakpoints: [{ on: 'request', request: 2 }],
            approval: { tools: 'writes', timeoutMs: 5000 },
          },
        },
        'tool-approval',
      ),
    );
    expect(config.pause).toEqual({ breakpoints: [{ on: 'request', request: 2 }] });
    expect(config.recovery).toEqual({});
    // A config without a pause has nothing to switch off.
    const plain = { provider: { vendor: 'sim-anthropic' }, recovery: {} };
    expect(configWithMechanismOff(plain, 'tool-approval')).toBe(plain);
  });

  it('MCP reconnect is switched off in the run config’s MCP recovery, the rest of it kept', () => {
    const mcp = {
      servers: [{ name: 'ws', shipped: 'workspace' as const, transport: 'stdio' as const }],
      recovery: { backoffMs: 200 },
    };
    const config = RunConfigSchema.parse(
      configWithMechanismOff({ provider: { vendor: 'sim-anthropic' }, mcp }, 'mcp-reconnect'),
    );
    expect(config.mcp?.recovery).toMatchObject({ reconnect: false, backoffMs: 200, relist: true });
    expect(config.recovery).toEqual({});
    // A run without MCP servers has nothing to switch off.
    const plain = { provider: { vendor: 'sim-anthropic' as const }, recovery: {} };
    expect(configWithMechanismOff(plain, 'mcp-reconnect')).toEqual(plain);
  });
});
