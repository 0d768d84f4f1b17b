'use client';

import { useState } from 'react';
import type { PromptSet } from '@/lib/protocol';
import { ApiError } from '@/lib/client/api/client';
import { promptTexts, type PlaygroundForm } from '@/lib/client/forms/playground-form';
import { usePromptSets, useSavePromptSet } from '@/lib/client/api/prompt-sets';
import { Button } from '@/components/ui/button';
import { Field, INPUT } from './field';

type PromptPatch = Partial<Pick<PlaygroundForm, 'system' | 'task' | 'toolDescriptions' | 'promptSet'>>;

const keyOf = (s: Pick<PromptSet, 'name' | 'version'>) => JSON.stringify([s.name, s.version]);

/**
 * Named, versioned prompt sets: load one into the form (the run then records which set and
 * version it used), or save the form's prompts under a name (a name that exists gets its next
 * version). Editing a loaded prompt clears the link, so a run never claims a set it changed.
 */
export function PromptSetPicker({
  form,
  onChange,
}: {
  form: PlaygroundForm;
  onChange: (patch: PromptPatch) => void;
}) {
  const { data: sets = [] } = usePromptSets();
  const save = useSavePromptSet();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const load = (key: string) => {
    const set = sets.find((s) => keyOf(s) === key);
    if (!set) return onChange({ promptSet: null });
    setName(set.name);
    onChange({
      system: set.system,
      task: set.task,
      toolDescriptions: set.toolDescriptions,
      promptSet: { name: set.name, version: set.version },
    });
  };
  const onSave = () => {
    setError(undefined);
    save.mutate(
      { name: name.trim(), ...promptTexts(form) },
      {
        onSuccess: (saved) => {
          onChange({ promptSet: { name: saved.name, version: saved.version } });
        },
        onError: (e) => setError(e instanceof ApiError ? [e.message, ...e.details].join(' · ') : String(e)),
      },
    );
  };
  return (
    <div className="flex flex-col gap-2" data-testid="prompt-sets">
      <Field
        label="prompt set"
        hint={
          form.promptSet
            ? `runs record ${form.promptSet.name} v${form.promptSet.version}`
            : 'none: runs record no set'
        }
      >
        <select
          data-testid="prompt-set-select"
          className={INPUT}
          value={form.promptSet ? keyOf(form.promptSet) : ''}
          onChange={(e) => load(e.target.value)}
        >
          <option value="">— none —</option>
          {sets.map((s) => (
            <option key={keyOf(s)} value={keyOf(s)}>
              {s.name} v{s.version}
            </option>
          ))}
        </select>
      </Field>
      <div className="flex gap-2">
        <input
          data-testid="prompt-set-name"
          className={INPUT}
          placeholder="name to save as"
          title="a name that exists gets its next version"
          aria-label="prompt set name"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <Button
          data-testid="prompt-set-save"
          onClick={onSave}
          disabled={save.isPending || !name.trim()}
          title="save the system prompt, task and tool descriptions as a new version"
        >
          Save
        </Button>
      </div>
      {error && <div className="font-mono text-2xs break-words text-fail">{error}</div>}
    </div>
  );
}
