'use client';

import { useState } from 'react';
import { asPresetId, PRESET_IDS, type PresetId } from '@/lib/protocol/preset-ids';
import { PRESET_DESCRIPTIONS, PRESET_LABELS } from '@/lib/protocol/presets';
import { Field, INPUT } from './field';

function presetHint(preset: PresetId): string {
  const { summary, differs } = PRESET_DESCRIPTIONS[preset];
  return differs ? `${summary}. Project choice: ${differs}.` : summary;
}

/**
 * The recovery preset. Its description (some run to two thousand characters) is folded to one
 * line under the picker; a click unfolds it, and another folds it again.
 */
export function PresetPicker({ value, onChange }: { value: PresetId; onChange: (preset: PresetId) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="flex flex-col gap-0.5">
      <Field label="preset">
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
      <button
        type="button"
        data-testid="preset-description"
        aria-expanded={open}
        title={open ? 'fold the description' : 'show the whole description'}
        onClick={() => setOpen(!open)}
        className={`text-left text-2xs text-faint hover:text-muted ${open ? 'whitespace-normal' : 'truncate'}`}
      >
        <span aria-hidden className="mr-1 text-muted">
          {open ? '▾' : '▸'}
        </span>
        {presetHint(value)}
      </button>
    </div>
  );
}
