'use client';

import { PRESET_LABELS, PresetIdSchema, type PresetId } from '@/lib/protocol';
import { Field, INPUT } from './field';

const PRESET_HINTS: Record<PresetId, string> = {
  codesmith: 'whitelist retry, 1 s doubling to 60 s ±10 %, stream watchdog, loop guard',
  s11: 'min(500·2ⁿ, 32 s) + 0–25 %, 10 retries, fallback after 3 overloads',
  course: 'safe executor: tools fail well; model calls are not retried',
  naive: 'no recovery at all: the first error ends the run',
  'sdk-default': "only the vendor SDK's own 2 retries",
};

export function PresetPicker({ value, onChange }: { value: PresetId; onChange: (preset: PresetId) => void }) {
  return (
    <Field label="preset" hint={PRESET_HINTS[value]}>
      <select
        data-testid="preset-select"
        className={INPUT}
        value={value}
        onChange={(e) => onChange(PresetIdSchema.parse(e.target.value))}
      >
        {PresetIdSchema.options.map((p) => (
          <option key={p} value={p}>
            {PRESET_LABELS[p]}
          </option>
        ))}
      </select>
    </Field>
  );
}
