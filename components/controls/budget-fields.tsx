'use client';

import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import { Field, INPUT } from './field';

type Budgets = PlaygroundForm['budgets'];

const FIELDS: ReadonlyArray<{
  key: keyof Budgets;
  label: string;
  hint: string;
  min: number;
  max: number;
  step: string;
}> = [
  {
    key: 'maxIterations',
    label: 'turns',
    hint: 'model turns before the run stops',
    min: 1,
    max: 500,
    step: '1',
  },
  { key: 'maxCostUsd', label: 'cost $', hint: 'spend before the run stops', min: 0, max: 1000, step: 'any' },
  {
    key: 'maxRunMinutes',
    label: 'run time (min)',
    hint: 'minutes of run clock before the run stops, whatever it is waiting on',
    min: 1 / 60,
    max: 1440,
    step: 'any',
  },
  {
    key: 'maxAttempts',
    label: 'attempts',
    hint: 'model requests of any kind (retries and background calls too)',
    min: 1,
    max: 10_000,
    step: '1',
  },
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
    <div className="grid grid-cols-2 gap-2" data-testid="budget-fields">
      {FIELDS.map((f) => (
        <Field key={f.key} label={f.label}>
          <input
            data-testid={`budget-${f.key}`}
            type="number"
            min={f.min}
            max={f.max}
            step={f.step}
            title={f.hint}
            className={INPUT}
            value={budgets[f.key]}
            onChange={(e) => onChange({ ...budgets, [f.key]: Number(e.target.value) })}
          />
        </Field>
      ))}
    </div>
  );
}
