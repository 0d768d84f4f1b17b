'use client';

import { POLICY_LABELS } from '@/lib/client/forms/playground-form';
import type { SimPolicyId } from '@/lib/protocol';
import { Field, INPUT } from './field';

/** How the simulated model behaves: the scenario's worker, or one that misbehaves on purpose. */
export function PolicyPicker({
  value,
  onChange,
}: {
  value: SimPolicyId | '';
  onChange: (policy: SimPolicyId | '') => void;
}) {
  return (
    <Field label="simulated model" hint="a model that misbehaves on purpose, to provoke a recovery mechanism">
      <select
        data-testid="policy-select"
        className={INPUT}
        value={value}
        onChange={(e) => onChange(e.target.value as SimPolicyId | '')}
      >
        <option value="">scenario default (does the task)</option>
        {(Object.keys(POLICY_LABELS) as SimPolicyId[])
          .filter((id) => id !== 'worker')
          .map((id) => (
            <option key={id} value={id}>
              {POLICY_LABELS[id]}
            </option>
          ))}
      </select>
    </Field>
  );
}
