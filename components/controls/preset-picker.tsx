'use client';

import { asPresetId, PRESET_IDS, type PresetId } from '@/lib/protocol/preset-ids';
import { PRESET_DESCRIPTIONS, PRESET_LABELS } from '@/lib/protocol/presets';
import { Field, INPUT } from './field';

function presetHint(preset: PresetId): string {
  const { summary, differs } = PRESET_DESCRIPTIONS[preset];
  return differs ? `${summary}. Project choice: ${differs}.` : summary;
}

export function PresetPicker({ value, onChange }: { value: PresetId; onChange: (preset: PresetId) => void }) {
  return (
    <Field label="preset" hint={presetHint(value)}>
      <select
        data-testid="preset-select"
        className={INPUT}
        value={value}
        onChange={(e) => onChange(asPresetId(e.target.value) ?? value)}
      >
        {PRESET_IDS.map((p) => (
          <option key={p} value={p}>
            {PRESET_LABELS[p]}
          </option>
        ))}
      </select>
    </Field>
  );
}
