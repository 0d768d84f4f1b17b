'use client';

import { useScenarios } from '@/lib/client/api/runs';
import { Field, INPUT } from './field';

/**
 * The task sent to the model. Empty means the scenario's own task (shown as the placeholder);
 * a task of your own is what a real vendor works on, and the simulated model answers it from
 * what it can read.
 */
export function TaskField({
  scenario,
  value,
  onChange,
}: {
  scenario: string;
  value: string;
  onChange: (task: string) => void;
}) {
  const { data } = useScenarios();
  const own = data?.find((s) => s.id === scenario)?.task ?? '';
  return (
    <Field
      label="task"
      hint={value ? 'your own task replaces the scenario’s' : 'empty: the scenario’s own task'}
    >
      <textarea
        data-testid="task-input"
        className={`${INPUT} min-h-16 resize-y font-sans`}
        rows={3}
        placeholder={own}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}
