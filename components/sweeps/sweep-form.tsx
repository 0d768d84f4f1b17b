'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { FAULT_TOGGLES } from '@/lib/client/forms/fault-catalog';
import { useScenarios } from '@/lib/client/api/runs';
import {
  formRunCount,
  gridFromForm,
  INITIAL_SWEEP_FORM,
  type SweepFormState,
} from '@/lib/client/forms/sweep-form';
import { usePromptSets } from '@/lib/client/api/prompt-sets';
import { PromptOnlyNote } from '@/components/compare/prompt-only-note';
import { SweepEndpointFields } from './sweep-endpoint-fields';
import { useCreateSweep } from '@/lib/client/api/sweep-queries';
import { ApiError } from '@/lib/client/api/client';
import { MECHANISMS as MECHANISMS_TABLE } from '@/lib/mechanisms/mechanisms';
import { MAX_SWEEP_JOBS, SweepMechanismSchema } from '@/lib/protocol/sweeps';
import { PRESET_LABELS } from '@/lib/protocol/presets';
import { PresetIdSchema } from '@/lib/protocol/recovery';
import { Button } from '@/components/ui/button';
import { INPUT } from '@/components/controls/field';
import { CheckGroup } from './check-group';

const PRESETS = PresetIdSchema.options.map((id) => ({ id, label: PRESET_LABELS[id] }));
const MECHANISMS = SweepMechanismSchema.options.map((id) => ({
  id,
  label: MECHANISMS_TABLE[id].label,
  title: MECHANISMS_TABLE[id].oneLine,
}));
const FAULTS = [
  { id: 'none', label: 'no faults', title: 'the run as scripted' },
  ...FAULT_TOGGLES.map((t) => ({ id: t.id, label: t.label, title: t.meaning })),
];
const VENDORS = [
  { id: 'sim-anthropic' as const, label: 'sim-anthropic' },
  { id: 'sim-openai' as const, label: 'sim-openai' },
  { id: 'sim-openai-responses' as const, label: 'sim-openai-responses' },
];

/** The grid form: what to compare, under which faults, over how many seeds. */
export function SweepForm() {
  const [form, setForm] = useState<SweepFormState>(INITIAL_SWEEP_FORM);
  const scenarios = useScenarios();
  const create = useCreateSweep();
  const router = useRouter();
  const runs = formRunCount(form);
  const promptSets = usePromptSets();
  const promptOptions = (promptSets.data ?? []).map((p) => ({
    id: `${p.name}@${p.version}`,
    label: `${p.name} v${p.version}`,
  }));
  // Which prompt fields the chosen sets change, said where they meet a simulated vendor (which does not read them).
  const chosen = (promptSets.data ?? []).filter((p) => form.promptSets.includes(`${p.name}@${p.version}`));
  const unread = [
    ...(chosen.some((p) => p.system.trim()) ? ['system prompt'] : []),
    ...(chosen.some((p) => Object.keys(p.toolDescriptions).length > 0) ? ['tool descriptions'] : []),
  ];
  const set =
    <K extends keyof SweepFormState>(key: K) =>
    (value: SweepFormState[K]) =>
      setForm((f) => ({ ...f, [key]: value }));
  const error = create.error instanceof ApiError ? create.error : undefined;

  const start = (): void => {
    create.mutate(gridFromForm(form), { onSuccess: ({ id }) => router.push(`/sweeps/${id}`) });
  };

  return (
    <form
      className="flex flex-col gap-3 rounded border border-line bg-panel p-3"
      data-testid="sweep-form"
      onSubmit={(e) => {
        e.preventDefault();
        start();
      }}
    >
      <h2 className="text-2xs font-semibold tracking-wide text-faint uppercase">New sweep</h2>
      <label className="flex flex-col gap-0.5">
        <span className="text-2xs font-medium text-muted">Name (optional)</span>
        <input
          className={INPUT}
          value={form.name}
          onChange={(e) => set('name')(e.target.value)}
          placeholder="which config wins under overloads?"
        />
      </label>
      <CheckGroup
        label="Scenarios"
        options={(scenarios.data ?? [{ id: 'fix-failing-test', title: 'Fix a failing test' }]).map((s) => ({
          id: s.id,
          label: s.title,
        }))}
        value={form.scenarios}
        onChange={set('scenarios')}
      />
      <CheckGroup
        label="Configurations (recovery presets)"
        options={PRESETS}
        value={form.presets}
        onChange={set('presets')}
        testId="sweep-presets"
      />
      <CheckGroup
        label="Also run each configuration with one mechanism off"
        options={MECHANISMS}
        value={form.mechanismsOff}
        onChange={set('mechanismsOff')}
        allowNone
      />
      <CheckGroup
        label="Fault plans (one each)"
        options={FAULTS}
        value={form.faults}
        onChange={set('faults')}
        testId="sweep-faults"
      />
      <CheckGroup
        label="Simulated vendors"
        options={VENDORS}
        value={form.vendors}
        onChange={set('vendors')}
        allowNone
      />
      <SweepEndpointFields value={form.endpoint} onChange={set('endpoint')} />
      <label className="flex flex-col gap-0.5">
        <span className="text-2xs font-medium text-muted">
          Models (comma-separated; empty: each target’s default)
        </span>
        <input
          className={INPUT}
          value={form.models}
          onChange={(e) => set('models')(e.target.value)}
          placeholder="gpt-4o-mini, deepseek-chat"
          data-testid="sweep-models"
        />
      </label>
      {promptOptions.length > 0 && (
        <CheckGroup
          label="Prompt sets (each version a row; none: the built-in prompts)"
          options={promptOptions}
          value={form.promptSets}
          onChange={set('promptSets')}
          allowNone
          testId="sweep-prompt-sets"
        />
      )}
      {form.vendors.length > 0 && unread.length > 0 && <PromptOnlyNote fields={unread} where="sweep" />}
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-0.5">
          <span className="text-2xs font-medium text-muted">Cost cap (USD, whole sweep; empty: none)</span>
          <input
            type="number"
            min={0}
            step="0.01"
            className={`${INPUT} w-32`}
            value={form.costCapUsd}
            onChange={(e) => set('costCapUsd')(e.target.value)}
            data-testid="sweep-cost-cap"
          />
        </label>
        <label className="flex flex-col gap-0.5">
          <span className="text-2xs font-medium text-muted">
            Replay from cassettes of sweep (empty: call the endpoint)
          </span>
          <input
            className={`${INPUT} w-48`}
            value={form.replayFrom}
            onChange={(e) => set('replayFrom')(e.target.value)}
            placeholder="sweep-1a2b3c4d"
          />
        </label>
      </div>
      <div className="flex items-end gap-2">
        <label className="flex flex-col gap-0.5">
          <span className="text-2xs font-medium text-muted">Seeds from</span>
          <input
            type="number"
            min={0}
            className={`${INPUT} w-24`}
            value={form.seedFrom}
            onChange={(e) => set('seedFrom')(Number(e.target.value))}
            data-testid="sweep-seed-from"
          />
        </label>
        <label className="flex flex-col gap-0.5">
          <span className="text-2xs font-medium text-muted">to</span>
          <input
            type="number"
            min={0}
            className={`${INPUT} w-24`}
            value={form.seedTo}
            onChange={(e) => set('seedTo')(Number(e.target.value))}
            data-testid="sweep-seed-to"
          />
        </label>
        <span className="pb-1 text-2xs text-muted tabular" data-testid="sweep-run-count">
          {runs.toLocaleString('en')} runs
          {form.endpoint.enabled
            ? ' (simulated ones on the virtual clock, the endpoint’s on the real clock)'
            : ' on the virtual clock'}
        </span>
      </div>
      {error && (
        <div className="rounded border border-fail/40 bg-fail-soft p-2 text-xs text-fail">
          {error.message}
          {error.details.length > 0 && (
            <ul className="mt-1 list-disc pl-4">
              {error.details.map((d) => (
                <li key={d}>{d}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div>
        <Button
          type="submit"
          variant="primary"
          disabled={create.isPending || runs < 1 || runs > MAX_SWEEP_JOBS}
          data-testid="sweep-start"
        >
          {create.isPending ? 'Starting…' : 'Start sweep'}
        </Button>
      </div>
    </form>
  );
}
