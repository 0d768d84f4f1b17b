'use client';

import { PRESET_DESCRIPTIONS, PRESET_LABELS, PresetIdSchema, type PresetId } from '@/lib/protocol';
import { Field, INPUT } from './field';

function presetHint(preset: PresetId): string {
  const { summary, differs } = PRESET_DESCRIPTIONS[preset];
  return differs ? `${summary}. Project choice: ${differs}.` : summary;
}

export function PresetPicker({ value, onChange }: { value: PresetId; onChange: (preset: PresetId) => void }) {
  return (
    <Field label="preset" hint={presetHint(value)}>
      <select data-testid="preset-select" className={INPUT} value={value} onChange={(e) => onChange(PresetIdSchema.parse(e.target.value))}>
        {PresetIdSchema.options.map((p) => (
          <option key={p} value={p}>
            {PRESET_LABELS[p]}
          </option>
        ))}
      </select>
    </Field>
  );
}
