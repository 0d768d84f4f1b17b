'use client';

import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import type { TakeoverRule } from '@/lib/protocol';
import { Field, INPUT } from './field';

/** How history is handed over on a swap: foreign thinking dropped or noted; the naive toggle; each safeguard off alone. */
export function TakeoverFields({
  form,
  onChange,
  disabled,
}: {
  form: PlaygroundForm;
  onChange: (patch: Partial<PlaygroundForm>) => void;
  disabled: boolean;
}) {
  return (
    <>
      <Field
        label="foreign thinking on a swap"
        hint="credentials (signatures) never travel; the text is dropped, or kept as a clearly marked note"
      >
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
          <span className="text-fg">naive takeover</span>: send the history to the new vendor as it was,
          credentials included — and watch the strict vendor reject it with its real error
        </span>
      </label>
      <fieldset className="flex flex-col gap-1 text-2xs text-muted" disabled={disabled || form.naiveTakeover}>
        <legend className="text-fg">switch one safeguard off alone</legend>
        {TAKEOVER_RULES.map(({ rule, label, hint }) => (
          <label key={rule} className="flex items-start gap-2">
            <input
              type="checkbox"
              data-testid={`takeover-rule-off-${rule}`}
              checked={form.naiveTakeover || form.takeoverRulesOff.includes(rule)}
              onChange={(e) =>
                onChange({
                  takeoverRulesOff: e.target.checked
                    ? [...form.takeoverRulesOff, rule]
                    : form.takeoverRulesOff.filter((r) => r !== rule),
                })
              }
            />
            <span>
              <span className="text-fg">{label}</span> off: {hint}
            </span>
          </label>
        ))}
      </fieldset>
    </>
  );
}

/** The takeover safeguards, each switchable alone (a naive takeover switches off all but the last at once). */
const TAKEOVER_RULES: { rule: TakeoverRule; label: string; hint: string }[] = [
  {
    rule: 'credentials',
    label: 'drop foreign credentials',
    hint: 'thinking signed by another model goes out with its signature (Anthropic refuses it)',
  },
  {
    rule: 'latest_turn',
    label: 'latest-turn rule',
    hint: 'thinking stays on for a tool round that began without thinking this model signed',
  },
  {
    rule: 'reasoning_placeholder',
    label: 'reasoning placeholder',
    hint: 'a DeepSeek-style vendor gets tool-call turns without reasoning_content',
  },
  {
    rule: 'handles',
    label: 're-send references by value',
    hint: 'a stored response (previous_response_id) is named to a model that does not hold it (the Responses API refuses it)',
  },
];
