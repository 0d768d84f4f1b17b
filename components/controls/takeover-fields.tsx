'use client';

import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import { Field, INPUT } from './field';

/** How history is handed over on a swap: foreign thinking dropped or noted; the naive toggle. */
export function TakeoverFields({ form, onChange, disabled }: { form: PlaygroundForm; onChange: (patch: Partial<PlaygroundForm>) => void; disabled: boolean }) {
  return (
    <>
      <Field label="foreign thinking on a swap" hint="credentials (signatures) never travel; the text is dropped, or kept as a clearly marked note">
        <select
          data-testid="foreign-thinking-select"
          className={INPUT}
          disabled={disabled}
          value={form.foreignThinking}
          onChange={(e) => onChange({ foreignThinking: e.target.value === 'note' ? 'note' : 'drop' })}
        >
          <option value="drop">dropped</option>
          <option value="note">kept as a marked note</option>
        </select>
      </Field>
      <label className="flex items-start gap-2 text-2xs text-muted">
        <input
          type="checkbox"
          data-testid="naive-takeover-toggle"
          disabled={disabled}
          checked={form.naiveTakeover}
          onChange={(e) => onChange({ naiveTakeover: e.target.checked })}
        />
        <span>
          <span className="text-fg">naive takeover</span>: send the history to the new vendor as it was, credentials included — and watch the strict vendor
          reject it with its real error
        </span>
      </label>
    </>
  );
}
