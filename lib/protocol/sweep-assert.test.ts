import { describe, expect, it } from 'vitest';
import { SweepGridSchema } from './sweeps';
import { describeIssues } from './describe-issues';
import { gateHolds, parseGateAssertion } from './sweep-assert';

const error = (text: string): string => {
  const parsed = parseGateAssertion(text);
  if (parsed.ok) throw new Error(`"${text}" parsed`);
  return parsed.error;
};

describe('the gate grammar', () => {
  it('reads METRIC OP NUMBER with any spacing', () => {
    expect(parseGateAssertion('done_rate >= 0.9')).toEqual({
      ok: true,
      assertion: { text: 'done_rate >= 0.9', metric: 'done_rate', op: '>=', value: 0.9 },
    });
    expect(parseGateAssertion('  p95_cost<=5e-2 ')).toMatchObject({
      ok: true,
      assertion: { text: 'p95_cost <= 5e-2', metric: 'p95_cost', op: '<=', value: 0.05 },
    });
    expect(parseGateAssertion('errors_seen == 0')).toMatchObject({
      ok: true,
      assertion: { op: '==', value: 0 },
    });
  });

  it('names the known metrics, and the nearest, for an unknown one', () => {
    expect(error('done_rat >= 0.9')).toMatch(
      /unknown metric "done_rat" \(did you mean done_rate\?\); write one of runs, done_rate, completion_rate/,
    );
    expect(error('speed > 3')).toMatch(/^"speed > 3": unknown metric "speed"; write one of /);
    expect(error('cost < 1')).toContain('unknown metric "cost" (did you mean mean_cost?)');
  });

  it('shows the shape for bad syntax, and is never evaluated as code', () => {
    expect(error('done_rate >= ')).toContain('write METRIC OP NUMBER, e.g. "done_rate >= 0.9"');
    expect(error('done_rate => 0.9')).toContain('write METRIC OP NUMBER');
    expect(error('done_rate >= 0.9; process.exit(1)')).toContain('write METRIC OP NUMBER');
    expect(error('done_rate >= 1 || true')).toContain('write METRIC OP NUMBER');
    expect(error('')).toContain('empty');
    expect(error('done_rate = 1')).toContain('use == to test equality');
    expect(error('done_rate >= 90%')).toContain('write a share, not a percentage: 0.9 for 90 %');
    expect(error('done_rate >= 90')).toContain('done_rate is a share from 0 to 1: write 0.9 for 90 %');
  });

  it('compares with each operator', () => {
    expect(gateHolds('>=', 0.9, 0.9)).toBe(true);
    expect(gateHolds('>', 0.9, 0.9)).toBe(false);
    expect(gateHolds('<=', 0.06, 0.05)).toBe(false);
    expect(gateHolds('<', 0.04, 0.05)).toBe(true);
    expect(gateHolds('==', 0, 0)).toBe(true);
    expect(gateHolds('!=', 0, 0)).toBe(false);
  });

  it("checks a grid's assert list where the grid is parsed, naming the entry", () => {
    const grid = {
      configurations: [{ id: 'c', preset: 'codesmith' }],
      seeds: [1],
      assert: ['done_rate >= 0.9', { that: 'p95_cost <= 0.05', config: 'c' }, { that: 'cost < 1' }],
    };
    const parsed = SweepGridSchema.safeParse(grid);
    expect(parsed.success).toBe(false);
    expect(describeIssues(parsed.error!).join('\n')).toMatch(
      /assert\.2\.that: "cost < 1": unknown metric "cost"/,
    );
    expect(SweepGridSchema.parse({ ...grid, assert: grid.assert.slice(0, 2) }).assert).toHaveLength(2);
  });
});
