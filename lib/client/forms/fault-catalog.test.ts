import { describe, expect, it } from 'vitest';
import { FaultPlanSchema } from '@/lib/protocol';
import { FAULT_TOGGLES, faultPlanFor, togglesInPlan } from './fault-catalog';
import { buildRunRequest, DEFAULT_FORM } from './playground-form';

describe('the fault catalog', () => {
  it('every toggle makes a plan the server accepts', () => {
    const plan = faultPlanFor(FAULT_TOGGLES.map((t) => t.id));
    expect(FaultPlanSchema.safeParse(plan).success).toBe(true);
    expect(plan.rules.length + plan.tools.length).toBe(FAULT_TOGGLES.length);
  });

  it('aims tool faults at one tool, or every tool', () => {
    expect(faultPlanFor(['tool-throw']).tools).toEqual([
      expect.objectContaining({ kind: 'throw', tool: '*' }),
    ]);
    expect(faultPlanFor(['tool-throw', 'overloaded-x3'], 'read_file').tools).toEqual([
      expect.objectContaining({ kind: 'throw', tool: 'read_file' }),
    ]);
  });

  it('reads the toggles back from a plan', () => {
    expect(togglesInPlan(faultPlanFor(['stall-after-first', 'tool-slow'])).sort()).toEqual([
      'stall-after-first',
      'tool-slow',
    ]);
  });

  it('the run request carries the plan, the task and the policy only when set, and never a key for a simulated vendor', () => {
    const plain = buildRunRequest(DEFAULT_FORM);
    expect(plain.config).not.toHaveProperty('task');
    expect(plain.config).not.toHaveProperty('policy');
    expect(plain).not.toHaveProperty('apiKey');
    const custom = buildRunRequest(
      {
        ...DEFAULT_FORM,
        task: '  Explain it.  ',
        policy: 'bad-args',
        faults: ['tool-huge'],
        toolFaultTarget: 'search',
      },
      'sk-x',
    );
    expect(custom.config).toMatchObject({
      task: 'Explain it.',
      policy: 'bad-args',
      faults: { tools: [{ tool: 'search', kind: 'huge' }] },
    });
    expect(custom).not.toHaveProperty('apiKey');
  });
});
