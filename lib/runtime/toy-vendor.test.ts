import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectFor } from '@/lib/dialects';
import { dialectOf, isSimulated, RunConfigSchema, vendorIds } from '@/lib/protocol';
import { ofType, runToEnd, terminateOf } from '@/lib/testing/run-to-end';
import {
  registerToyVendor,
  TOY_DIALECT,
  TOY_MODEL,
  TOY_VENDOR,
  type ToyTraffic,
} from '@/lib/testing/toy-vendor';

// A vendor and a dialect Loop Lab does not ship, registered from a fixture (lib/testing/toy-vendor.ts)
// through the same calls the built-in ones use, then run by launchRun over the real engine, the real
// OpenAI SDK and adapter, and the run's policy: nothing in lib/engine, lib/runtime or lib/providers
// names it.
describe('a vendor added as a row, a dialect module and a simulator', () => {
  const traffic: ToyTraffic = { roles: [] };
  let unregister: () => void = () => {};
  beforeAll(() => {
    unregister = registerToyVendor(traffic);
  });
  afterAll(() => unregister());

  it('is in the table: the config schema accepts it, and its row answers for it', () => {
    expect(vendorIds()).toContain(TOY_VENDOR);
    expect(RunConfigSchema.parse({ provider: { vendor: TOY_VENDOR } }).provider.vendor).toBe(TOY_VENDOR);
    expect(isSimulated(TOY_VENDOR)).toBe(true);
    expect(dialectOf(TOY_VENDOR)).toBe('openai');
    expect(dialectFor({ vendor: TOY_VENDOR, model: TOY_MODEL }).id).toBe(TOY_DIALECT);
  });

  it('runs a loop to its terminate event, every request in its own dialect', async () => {
    const events = await runToEnd({ provider: { vendor: TOY_VENDOR }, seed: 3 });
    const start = ofType(events, 'run_start')[0];
    expect(start).toMatchObject({ vendor: TOY_VENDOR, model: TOY_MODEL });
    const calls = ofType(events, 'llm_call').filter((e) => !e.background);
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.every((c) => c.vendor === TOY_VENDOR)).toBe(true);
    // The work went through tools the policy chose from what the simulator streamed back.
    expect(ofType(events, 'tool_call').filter((c) => !c.is_error).length).toBeGreaterThan(0);
    expect(terminateOf(events).reason).toBe('end_turn');
    // Every request was rendered by the toy dialect: a developer message, never a system one
    // (the simulator would have answered a 400).
    expect(traffic.roles.length).toBeGreaterThanOrEqual(calls.length);
    for (const roles of traffic.roles) {
      expect(roles[0]).toBe('developer');
      expect(roles).not.toContain('system');
    }
  });
});

describe('the registration points refuse what cannot work, saying what to fix', () => {
  it('an unknown vendor is a config error naming the vendors', () => {
    const parsed = RunConfigSchema.safeParse({ provider: { vendor: 'sim-nobody' } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(
      /no vendor "sim-nobody"; the vendors are sim-anthropic, /,
    );
  });

  it('a row whose dialect no module registers fails when bound, naming the dialect', async () => {
    const { registerVendor } = await import('@/lib/protocol');
    const undo = registerVendor({
      id: 'sim-orphan',
      label: 'orphan',
      dialect: 'no-such-dialect',
      wire: 'openai',
      sdk: 'openai',
      simulated: true,
      baseUrl: 'http://sim.orphan.local/v1',
      defaultModel: 'm',
      fallbackModel: 'm',
    });
    try {
      expect(() => dialectFor({ vendor: 'sim-orphan', model: 'm' })).toThrow(
        /speaks dialect "no-such-dialect", which no module registers/,
      );
    } finally {
      undo();
    }
    expect(vendorIds()).not.toContain('sim-orphan');
  });

  it('a row whose SDK cannot speak its wire format is refused', async () => {
    const { registerVendor } = await import('@/lib/protocol');
    expect(() =>
      registerVendor({
        id: 'bad-sdk',
        label: 'bad',
        dialect: 'anthropic-messages',
        wire: 'anthropic',
        sdk: 'openai',
        simulated: false,
        keyVar: 'X_KEY',
        baseUrlVar: 'X_BASE_URL',
        defaultModel: 'm',
        fallbackModel: 'm',
      }),
    ).toThrow(/the anthropic wire format needs sdk "anthropic"/);
  });
});
