import BOUNDS from '@/lib/protocol/fixtures/number-bounds.json';
import { formatNumber } from '@/lib/protocol/describe-issues';
import type { PlaygroundForm } from './playground-form';
import { RECOVERY_GROUPS, readOverride, type RecoveryField } from './recovery-fields';

/**
 * The playground's numeric fields checked as they are typed, by the bounds the server's schema
 * holds them to (read from the schemas, so the two cannot drift), in the server's words:
 * `must be at least 0 — it is -7`.
 */
export interface NumberRule {
  min: number;
  max: number;
  /** A whole number only. */
  int: boolean;
  /** Shown after the bounds ("min"). */
  unit?: string;
}

/** A field that is wrong now: what the control panel shows beside it, and why Run is off. */
export interface NumberProblem {
  /** The control's data-testid. */
  field: string;
  label: string;
  message: string;
}

/**
 * A field's rule from the run config schema's bounds by dotted path. The bounds come zod-free
 * from lib/protocol/fixtures/number-bounds.json (written by `npm run fixtures` from the schema,
 * held to it by the fixtures test), so the form checks as the server will without loading zod.
 */
export function ruleAt(path: string, unit?: string): NumberRule {
  const bounds = (BOUNDS as Record<string, { min: number; max: number; int: boolean } | undefined>)[path];
  if (!bounds) throw new Error(`no number field ${path} in the run config schema`);
  return { ...bounds, ...(unit ? { unit } : {}) };
}

/** The allowed range in words: "a whole number from 0 to 50". */
export function rangeWords(rule: NumberRule): string {
  const unit = rule.unit ? ` ${rule.unit}` : '';
  return `${rule.int ? 'a whole number' : 'a number'} from ${formatNumber(rule.min)} to ${formatNumber(rule.max)}${unit}`;
}

/** What is wrong with a value typed into a field of this rule, or undefined when it is allowed. */
export function checkNumber(value: number, rule: NumberRule): string | undefined {
  if (Number.isNaN(value)) return 'is empty: type a number';
  const sent = ` — it is ${formatNumber(value)}`;
  if (!Number.isFinite(value)) return `must be a finite number${sent}`;
  if (rule.int && !Number.isInteger(value)) return `must be a whole number${sent}`;
  if (value < rule.min) return `must be at least ${formatNumber(rule.min)}${sent}`;
  if (value > rule.max) return `must be at most ${formatNumber(rule.max)}${sent}`;
  return undefined;
}

/** A number typed into an input: '' (or anything the browser could not read) is NaN, never 0. */
export function typedNumber(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

const MS_PER_MINUTE = 60_000;
const runMsRule = ruleAt('budgets.maxRunMs');

export const RUN_RULES = {
  seed: ruleAt('seed'),
  timeScale: ruleAt('timeScale'),
  maxOutputTokens: ruleAt('maxOutputTokens', 'tokens'),
} as const;

/** The budgets as the form holds them: run time in minutes, the schema's milliseconds divided out. */
export const BUDGET_RULES: Record<keyof PlaygroundForm['budgets'], NumberRule> = {
  maxIterations: ruleAt('budgets.maxIterations', 'turns'),
  maxCostUsd: ruleAt('budgets.maxCostUsd', 'dollars'),
  maxRunMinutes: {
    min: runMsRule.min / MS_PER_MINUTE,
    max: runMsRule.max / MS_PER_MINUTE,
    int: false,
    unit: 'minutes',
  },
  maxAttempts: ruleAt('budgets.maxAttempts', 'attempts'),
};

/** A numeric recovery field's rule, from RecoveryConfigSchema's bounds (its `ms` fields in milliseconds). */
export function recoveryRule(field: RecoveryField): NumberRule {
  return ruleAt(`recovery.${field.path}`, field.kind === 'ms' ? 'ms' : undefined);
}

const NUMERIC_KINDS = new Set(['int', 'ms', 'ratio']);

/** Every numeric field of the form that is wrong now, in the order the panel shows them. */
export function numberProblems(form: PlaygroundForm): NumberProblem[] {
  const problems: NumberProblem[] = [];
  const check = (field: string, label: string, value: number, rule: NumberRule) => {
    const message = checkNumber(value, rule);
    if (message) problems.push({ field, label, message });
  };
  for (const group of RECOVERY_GROUPS) {
    for (const field of group.fields) {
      if (!NUMERIC_KINDS.has(field.kind)) continue;
      const value = readOverride(form.overrides, field);
      if (typeof value === 'number') check(`recovery-${field.path}`, field.label, value, recoveryRule(field));
    }
  }
  check('seed-input', 'seed', form.seed, RUN_RULES.seed);
  // Checked on every clock: the server holds the config's time scale to its bounds whichever clock runs.
  check('time-scale-input', 'time scale', form.timeScale, RUN_RULES.timeScale);
  for (const key of Object.keys(BUDGET_RULES) as (keyof typeof BUDGET_RULES)[]) {
    check(`budget-${key}`, BUDGET_LABELS[key], form.budgets[key], BUDGET_RULES[key]);
  }
  if (form.maxOutputTokens !== null)
    check('output-cap-input', 'output cap', form.maxOutputTokens, RUN_RULES.maxOutputTokens);
  return problems;
}

export const BUDGET_LABELS: Record<keyof PlaygroundForm['budgets'], string> = {
  maxIterations: 'turns',
  maxCostUsd: 'cost $',
  maxRunMinutes: 'run time (min)',
  maxAttempts: 'attempts',
};
