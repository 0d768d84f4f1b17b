import { beforeAll, describe, expect, it } from 'vitest';
import type { EventOf, FaultRule, RunConfigInput } from '@/lib/protocol';
import { runToEnd } from '@/lib/testing/run-to-end';
import { configDiff } from './config-diff';

const overload = (id: string, n: number): FaultRule => ({
  id,
  enabled: true,
  when: { kind: 'requests', numbers: [n] },
  action: { type: 'http_error', status: 529 },
});
const config: RunConfigInput = {
  provider: { vendor: 'sim-anthropic' },
  seed: 3,
  budgets: { maxIterations: 2 },
  faults: {
    rules: [overload('o2', 2), overload('o3', 3)],
    tools: [{ id: 't', tool: '*', enabled: true, kind: 'throw' }],
  },
};

/** The run_start a real run records for `config`. */
async function startOf(input: RunConfigInput): Promise<EventOf<'run_start'>> {
  const events = await runToEnd(input);
  return events.find((e): e is EventOf<'run_start'> => e.event === 'run_start')!;
}

describe('configDiff: fault rules are diffed as rules, by id', () => {
  let base: EventOf<'run_start'>;
  beforeAll(async () => {
    base = await startOf(config);
  });

  it('a rule added in front is one differing row, not every later rule shifted field by field', () => {
    const withRule = {
      ...base,
      config: {
        ...base.config,
        faults: { ...base.config.faults, rules: [overload('rl', 1), ...base.config.faults.rules] },
      },
    };
    const rows = configDiff(base, withRule);
    expect(rows.map((r) => r.path)).toEqual(['faults.rules[rl]']);
    expect(rows[0]!.a).toBeNull();
    expect(JSON.parse(rows[0]!.b!)).toMatchObject({ id: 'rl', action: { status: 529 } });
  });

  it('an edited rule is one row showing the rule on each side; a removed tool fault is one row', () => {
    const edited = {
      ...base,
      config: {
        ...base.config,
        faults: {
          rules: [
            base.config.faults.rules[0]!,
            {
              ...base.config.faults.rules[1]!,
              action: { type: 'http_error' as const, status: 503 as const },
            },
          ],
          tools: [],
        },
      },
    };
    const rows = configDiff(base, edited);
    expect(rows.map((r) => r.path)).toEqual(['faults.rules[o3]', 'faults.tools[t]']);
    expect(JSON.parse(rows[0]!.a!).action.status).toBe(529);
    expect(JSON.parse(rows[0]!.b!).action.status).toBe(503);
    expect(rows[1]!.b).toBeNull();
  });

  it('the same config has no differing field', () => {
    expect(configDiff(base, base)).toEqual([]);
  });
});
