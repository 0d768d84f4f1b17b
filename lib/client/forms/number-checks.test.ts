import { describe, expect, it } from 'vitest';
import { RunConfigSchema } from '@/lib/protocol/config';
import { buildRunRequest, DEFAULT_FORM } from './playground-form';
import {
  checkNumber,
  numberProblems,
  rangeWords,
  recoveryRule,
  RUN_RULES,
  BUDGET_RULES,
} from './number-checks';
import { RECOVERY_GROUPS } from './recovery-fields';

describe('the playground checks its numbers as the server does', () => {
  it('the default form has no problem and the server takes it', () => {
    expect(numberProblems(DEFAULT_FORM)).toEqual([]);
    expect(RunConfigSchema.safeParse(buildRunRequest(DEFAULT_FORM).config).success).toBe(true);
  });

  it('says the range in words and what is wrong with the value typed', () => {
    expect(rangeWords(RUN_RULES.seed)).toBe('a whole number from 0 to 2,147,483,647');
    expect(rangeWords(RUN_RULES.timeScale)).toBe('a number from 0.001 to 10');
    expect(checkNumber(-7, RUN_RULES.seed)).toBe('must be at least 0 — it is -7');
    expect(checkNumber(1.5, RUN_RULES.seed)).toBe('must be a whole number — it is 1.5');
    expect(checkNumber(Number.NaN, RUN_RULES.seed)).toBe('is empty: type a number');
    expect(checkNumber(11, RUN_RULES.timeScale)).toBe('must be at most 10 — it is 11');
    expect(checkNumber(0.5, BUDGET_RULES.maxRunMinutes)).toBeUndefined();
  });

  it('a form the checks pass is one the server takes, and one they refuse it refuses, field by field', () => {
    const cases: Partial<typeof DEFAULT_FORM>[] = [
      { seed: -7 },
      { timeScale: -2 },
      { budgets: { ...DEFAULT_FORM.budgets, maxRunMinutes: 0.001 } },
      { budgets: { ...DEFAULT_FORM.budgets, maxIterations: 0 } },
      { maxOutputTokens: 3 },
      { overrides: { retry: { maxRetries: -1 } } },
      { overrides: { watchdog: { baseMs: 50 } } },
      { overrides: { compaction: { thresholdRatio: 1.5 } } },
    ];
    for (const patch of cases) {
      const form = { ...DEFAULT_FORM, ...patch };
      expect(numberProblems(form), JSON.stringify(patch)).toHaveLength(1);
      expect(RunConfigSchema.safeParse(buildRunRequest(form).config).success, JSON.stringify(patch)).toBe(
        false,
      );
    }
  });

  it('every numeric recovery field has a rule from the schema', () => {
    for (const group of RECOVERY_GROUPS)
      for (const field of group.fields)
        if (field.kind === 'int' || field.kind === 'ms' || field.kind === 'ratio')
          expect(recoveryRule(field).max, field.path).toBeGreaterThan(recoveryRule(field).min);
  });
});
