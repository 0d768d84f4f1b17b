'use client';

import { promptsUnreadBySimulation } from '@/lib/compare/prompt-only';
import { DEFAULT_SYSTEM_PROMPT } from '@/lib/protocol/config-defaults';
import { promptTexts, type PlaygroundForm } from '@/lib/client/forms/playground-form';
import { useScenarios } from '@/lib/client/api/runs';
import { PromptOnlyNote } from '@/components/compare/prompt-only-note';
import { checkNumber, rangeWords, RUN_RULES, typedNumber } from '@/lib/client/forms/number-checks';
import { Field, INPUT } from './field';

type PromptPatch = Partial<Pick<PlaygroundForm, 'system' | 'toolDescriptions'>>;
type PromptForm = Pick<PlaygroundForm, 'system' | 'toolDescriptions' | 'scenario' | 'vendor'>;

/**
 * The system prompt and what the model is told each tool does. Empty means the built-in
 * text, shown as the placeholder, so what is on screen is what is sent.
 */
export function PromptFields({
  form,
  onChange,
}: {
  form: PromptForm;
  onChange: (patch: PromptPatch) => void;
}) {
  const { data } = useScenarios();
  const tools = data?.find((s) => s.id === form.scenario)?.tools ?? [];
  const replaced = Object.keys(form.toolDescriptions).filter((name) =>
    form.toolDescriptions[name]?.trim(),
  ).length;
  const setTool = (name: string, text: string) => {
    const next = { ...form.toolDescriptions };
    if (text === '') delete next[name];
    else next[name] = text;
    onChange({ toolDescriptions: next });
  };
  // A prompt set's texts are in these fields; its task is not prompt text (the simulated model reads the task).
  const texts = promptTexts({ ...form, task: '' });
  const unread = promptsUnreadBySimulation({
    provider: { vendor: form.vendor },
    system: texts.system,
    toolDescriptions: texts.toolDescriptions,
  });
  return (
    <>
      {unread && <PromptOnlyNote fields={unread.fields} where="playground" />}
      <Field
        label="system prompt"
        hint={form.system.trim() ? 'your own system prompt' : 'empty: the built-in one'}
      >
        <textarea
          data-testid="system-input"
          className={`${INPUT} min-h-16 resize-y font-sans`}
          rows={3}
          placeholder={DEFAULT_SYSTEM_PROMPT}
          value={form.system}
          onChange={(e) => onChange({ system: e.target.value })}
        />
      </Field>
      <details data-testid="tool-descriptions" className="text-2xs">
        <summary className="cursor-pointer font-medium text-muted">
          tool descriptions
          {replaced > 0 ? (
            <span className="text-takeover"> · {replaced} replaced</span>
          ) : (
            <span className="text-faint"> · the tools’ own</span>
          )}
        </summary>
        <div className="mt-1.5 flex flex-col gap-2">
          {tools.length === 0 && <span className="text-faint">Loading the tools…</span>}
          {tools.map((tool) => (
            <Field key={tool.name} label={tool.name}>
              <textarea
                data-testid={`tool-description-${tool.name}`}
                className={`${INPUT} min-h-10 resize-y font-sans`}
                rows={2}
                placeholder={tool.description}
                value={form.toolDescriptions[tool.name] ?? ''}
                onChange={(e) => setTool(tool.name, e.target.value)}
              />
            </Field>
          ))}
        </div>
      </details>
    </>
  );
}

/** The output cap per model call; empty: the preset's. */
export function OutputCapField({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (cap: number | null) => void;
}) {
  const error = value === null ? undefined : checkNumber(value, RUN_RULES.maxOutputTokens);
  return (
    <Field
      label="output cap (tokens)"
      hint={value === null ? 'empty: the preset’s cap' : 'max_tokens of every model call'}
      testId="output-cap-input"
      range={rangeWords(RUN_RULES.maxOutputTokens)}
      error={error}
    >
      <input
        data-testid="output-cap-input"
        type="number"
        min={RUN_RULES.maxOutputTokens.min}
        max={RUN_RULES.maxOutputTokens.max}
        step={1}
        placeholder="preset’s"
        className={INPUT}
        aria-invalid={error !== undefined}
        value={value === null || Number.isNaN(value) ? '' : value}
        // Emptied: the preset's cap (an empty field is allowed here, unlike the others).
        onChange={(e) => onChange(e.target.value === '' ? null : typedNumber(e.target.value))}
      />
    </Field>
  );
}
