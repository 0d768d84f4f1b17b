'use client';

import { useScenarios } from '@/lib/client/api/runs';
import { Field, INPUT } from './field';

export function ScenarioPicker({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const { data, error, isLoading } = useScenarios();
  const scenarios = data ?? [];
  const current = scenarios.find((s) => s.id === value);
  const known = scenarios.some((s) => s.id === value);
  return (
    <Field
      label="scenario"
      hint={
        error ? (
          <span className="text-fail">could not load scenarios: {error.message}</span>
        ) : (
          current?.summary
        )
      }
    >
      <select
        data-testid="scenario-select"
        className={INPUT}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        {!known && <option value={value}>{isLoading ? `${value} (loading…)` : value}</option>}
        {scenarios.map((s) => (
          <option key={s.id} value={s.id}>
            {s.title}
          </option>
        ))}
      </select>
    </Field>
  );
}
