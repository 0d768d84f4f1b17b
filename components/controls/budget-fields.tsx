'use client';

import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import {
  BUDGET_LABELS,
  BUDGET_RULES,
  checkNumber,
  rangeWords,
  typedNumber,
} from '@/lib/client/forms/number-checks';
import { Field, INPUT } from './field';

type Budgets = PlaygroundForm['budgets'];

const FIELDS: ReadonlyArray<{ key: keyof Budgets; hint: string; step: string }> = [
  { key: 'maxIterations', hint: 'model turns before the run stops', step: '1' },
  { key: 'maxCostUsd', hint: 'spend before the run stops', step: 'any' },
  {
    key: 'maxRunMinutes',
    hint: 'minutes of run clock before the run stops, whatever it is waiting on',
    step: 'any',
  },
  { key: 'maxAttempts', hint: 'model requests of any kind (retries and background calls too)', step: '1' },
];

/** The run's overall budgets: whatever the faults and the recovery do, the run ends within them. */
export function BudgetFields({
  budgets,
  onChange,
}: {
  budgets: Budgets;
  onChange: (budgets: Budgets) => void;
}) {
  return (
    <div className="grid grid-cols-2 items-start gap-2" data-testid="budget-fields">
      {FIELDS.map((f) => {
        const rule = BUDGET_RULES[f.key];
        const error = checkNumber(budgets[f.key], rule);
        return (
          <Field
            key={f.key}
            label={BUDGET_LABELS[f.key]}
            testId={`budget-${f.key}`}
            range={rangeWords(rule)}
            error={error}
          >
            <input
              data-testid={`budget-${f.key}`}
              type="number"
              min={rule.min}
              max={rule.max}
              step={f.step}
              title={f.hint}
              className={INPUT}
              aria-invalid={error !== undefined}
              value={Number.isNaN(budgets[f.key]) ? '' : budgets[f.key]}
              onChange={(e) => onChange({ ...budgets, [f.key]: typedNumber(e.target.value) })}
            />
          </Field>
        );
      })}
    </div>
  );
}
