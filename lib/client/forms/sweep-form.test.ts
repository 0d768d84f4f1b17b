import { describe, expect, it } from 'vitest';
import { countSweepJobs, SweepGridSchema } from '@/lib/protocol';
import { formRunCount, gridFromForm, INITIAL_SWEEP_FORM } from './sweep-form';

describe('sweep form', () => {
  it('builds a grid the API accepts, with the run count the form shows', () => {
    const form = { ...INITIAL_SWEEP_FORM, mechanismsOff: ['watchdog' as const], faults: ['none', 'overloaded-x3', 'tool-throw'], seedTo: 10 };
    const grid = SweepGridSchema.parse(gridFromForm(form));
    expect(countSweepJobs(grid)).toBe(formRunCount(form));
    expect(formRunCount(form)).toBe(2 * 2 * 3 * 10);
    expect(grid.faultPlans.map((f) => [f.id, f.plan.rules.length, f.plan.tools.length])).toEqual([
      ['none', 0, 0],
      ['overloaded-x3', 1, 0],
      ['tool-throw', 0, 1],
    ]);
    expect(grid.configurations.map((c) => c.label)).toEqual(['CodeSmith', 'naive (no recovery)']);
  });
});
