'use client';

import type { RecoveryField } from '@/lib/client/forms/recovery-fields';
import { formatMs } from '@/lib/run-view/format';
import { checkNumber, rangeWords, recoveryRule, typedNumber } from '@/lib/client/forms/number-checks';
import { INPUT } from './field';

const NUMERIC = new Set(['int', 'ms', 'ratio']);

type Value = string | number | boolean;

function show(field: RecoveryField, v: Value): string {
  if (field.kind === 'ms' && typeof v === 'number') return formatMs(v);
  if (typeof v === 'string') return v === '' ? '(empty)' : v;
  return String(v);
}

/** One recovery parameter: its control, its preset default and a one-line meaning. */
export function RecoveryParam({
  field,
  defaultValue,
  override,
  onChange,
}: {
  field: RecoveryField;
  defaultValue: Value;
  override: Value | undefined;
  onChange: (value: Value | undefined) => void;
}) {
  const value = override ?? defaultValue;
  const changed = override !== undefined;
  const id = `recovery-${field.path}`;
  const rule = NUMERIC.has(field.kind) ? recoveryRule(field) : undefined;
  const error = rule && typeof value === 'number' ? checkNumber(value, rule) : undefined;
  let control;
  if (field.kind === 'bool') {
    control = (
      <input
        id={id}
        data-testid={id}
        type="checkbox"
        checked={Boolean(value)}
        onChange={(e) => onChange(e.target.checked)}
      />
    );
  } else if (field.kind === 'enum') {
    control = (
      <select
        id={id}
        data-testid={id}
        className={INPUT}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
      >
        {field.options?.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    );
  } else if (field.kind === 'text') {
    control = (
      <input
        id={id}
        data-testid={id}
        className={INPUT}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  } else {
    control = (
      <input
        id={id}
        data-testid={id}
        type="number"
        step={field.kind === 'ratio' ? 0.05 : 1}
        min={rule?.min}
        max={rule?.max}
        className={INPUT}
        aria-invalid={error !== undefined}
        aria-describedby={`${id}-range`}
        value={Number.isNaN(Number(value)) ? '' : Number(value)}
        // The value as typed, wrong ones too: the line under the field says what is wrong, and Run waits.
        onChange={(e) => onChange(typedNumber(e.target.value))}
      />
    );
  }
  return (
    <div className="grid grid-cols-[1fr_6.5rem] items-center gap-x-2" title={field.meaning}>
      <label htmlFor={id} className="flex min-w-0 flex-col">
        <span className={`truncate text-2xs ${changed ? 'font-semibold text-takeover' : 'text-fg'}`}>
          {field.label}
        </span>
        <span className="truncate text-[10px] leading-3 text-faint">
          {field.meaning} · default {show(field, defaultValue)}
        </span>
        {rule && (
          <span id={`${id}-range`} data-testid={`${id}-range`} className="text-[10px] leading-3 text-faint">
            {rangeWords(rule)}
          </span>
        )}
      </label>
      <div className="flex items-center justify-end gap-1">
        {control}
        {changed && (
          <button
            type="button"
            className="text-2xs text-faint hover:text-fg"
            title="back to the preset's default"
            onClick={() => onChange(undefined)}
          >
            ↺
          </button>
        )}
      </div>
      {error && (
        <span data-testid={`${id}-error`} className="col-span-2 text-2xs text-fail">
          {field.label} {error}
        </span>
      )}
    </div>
  );
}
