import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RunConfigSchema } from './config';
import { describeIssues } from './describe-issues';

const lines = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) throw new Error('expected the value to be refused');
  return describeIssues(result.error);
};

describe('describeIssues', () => {
  it('says which field, the bound in words and the value sent, never zod’s own terms', () => {
    const found = lines(RunConfigSchema, {
      provider: { vendor: 'sim-anthropic' },
      timeScale: -2,
      seed: -7,
      budgets: { maxIterations: 1.5 },
      color: 'red',
    });
    expect(found).toEqual(
      expect.arrayContaining([
        'timeScale: must be at least 0.001 — it is -2',
        'seed: must be at least 0 — it is -7',
        'budgets.maxIterations: must be a whole number — it is 1.5',
        '(root): unknown field "color": remove it',
      ]),
    );
    for (const line of found) expect(line).not.toMatch(/Too small|Too big|expected number|>=|<=|Invalid/);
  });

  it('words upper bounds, lengths, options and missing fields', () => {
    const schema = z.object({
      n: z.number().max(10),
      s: z.string().min(1),
      e: z.enum(['a', 'b']),
      m: z.number(),
    });
    expect(lines(schema, { n: 12_000_000, s: '', e: 'c' })).toEqual([
      'n: must be at most 10 — it is 12,000,000',
      's: must be at least 1 character long — it has 0 characters',
      'e: must be one of "a", "b" — it is "c"',
      'm: is missing: give a number',
    ]);
  });

  it('keeps a message the schema wrote itself', () => {
    const schema = z.object({
      cap: z.number().min(1, 'the cap must be at least 1: without it nothing ends'),
    });
    expect(lines(schema, { cap: 0 })).toEqual(['cap: the cap must be at least 1: without it nothing ends']);
  });

  it('says the rule without a value when the parse did not keep what was sent', () => {
    const result = z.object({ t: z.number().min(0.001) }).safeParse({ t: -2 });
    expect(describeIssues(result.error!)).toEqual(['t: must be at least 0.001']);
  });
});
