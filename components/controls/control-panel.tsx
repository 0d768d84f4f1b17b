'use client';

import { useEffect, useRef } from 'react';
import { isSimulated } from '@/lib/protocol/vendors';
import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import { countOverrides } from '@/lib/client/forms/recovery-fields';
import { formProblems } from '@/lib/client/forms/form-problems';
import { Button } from '@/components/ui/button';
import { BudgetFields } from './budget-fields';
import { FaultToggles } from './fault-toggles';
import { Fold, Section } from './field';
import { PolicyEditor } from './policy-editor';
import { PolicyPicker } from './policy-picker';
import { PresetPicker } from './preset-picker';
import { RetryRulesTable } from './retry-rules-table';
import { resolveRecovery } from '@/lib/protocol/presets';
import { OutputCapField, PromptFields } from './prompt-fields';
import { PromptSetPicker } from './prompt-set-picker';
import { RecoveryParams } from './recovery-params';
import { RunSettings } from './run-settings';
import { ScenarioPicker } from './scenario-picker';
import { SwapControl, type SwapTargetInput } from './swap-control';
import { SwapOutcomeLine } from './swap-outcome';
import { PlannedSwaps } from './planned-swaps';
import { PauseFields } from './pause-fields';
import { AnswerFields } from './answer-fields';
import type { PauseConfigInput } from '@/lib/protocol/pause';
import type { SwapAsk } from '@/lib/client/explain/swap-outcome';
import { TakeoverFields } from './takeover-fields';
import { TaskField } from './task-field';
import { VendorFields } from './vendor-fields';

export interface ControlPanelProps {
  form: PlaygroundForm;
  onChange: (patch: Partial<PlaygroundForm>) => void;
  onFaultsChange: (ids: string[]) => void;
  onToolFaultTargetChange: (tool: string) => void;
  onRun: () => void;
  onAbort: () => void;
  running: boolean;
  starting: boolean;
  live: boolean;
  errors: string[];
  /** Vendor/model answering now, while a run is live. */
  current?: string;
  onSwap: (target: SwapTargetInput) => void;
  /** Breakpoints changed while the run is live: sent to it at once. */
  onBreakpoints: (pause: PauseConfigInput) => void;
  swapPending: boolean;
  /** The run on screen (for the swap control's suggestions). */
  runId?: string;
  /** The last swap asked for from this page, whose outcome is shown in words. */
  swapAsk?: SwapAsk;
  /** Narrow screens: the panel is a drawer over the run, open or closed. */
  drawerOpen?: boolean;
  onCloseDrawer?: () => void;
}

/** The left panel: everything a run is made of, and Run / Abort. */
export function ControlPanel({
  form,
  onChange,
  onFaultsChange,
  onToolFaultTargetChange,
  onRun,
  onAbort,
  running,
  starting,
  live,
  errors,
  current,
  onSwap,
  onBreakpoints,
  swapPending,
  swapAsk,
  runId,
  drawerOpen = false,
  onCloseDrawer,
}: ControlPanelProps) {
  const overrideCount = countOverrides(form.overrides);
  const blocked = formProblems(form);
  // A prompt edited after loading a set is no longer that set: the run must not claim it.
  const onPromptChange = (patch: Partial<PlaygroundForm>) => onChange({ ...patch, promptSet: null });
  // The drawer takes focus when it opens, so Tab moves through the controls, not the run behind.
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    if (drawerOpen)
      panel.current?.querySelector<HTMLElement>('button:not([disabled]), select, input')?.focus();
  }, [drawerOpen]);
  return (
    <aside
      ref={panel}
      id="run-controls"
      data-testid="controls"
      data-drawer={drawerOpen ? 'open' : 'closed'}
      className={`${drawerOpen ? 'flex' : 'hidden'} fixed top-(--header-h) bottom-0 left-0 z-40 w-80 max-w-[88vw] shrink-0 flex-col overflow-y-auto border-r border-line bg-panel shadow-lg md:static md:z-auto md:flex md:max-w-none md:shadow-none`}
      aria-label="run controls"
      onKeyDown={(e) => {
        // On a phone the controls are a drawer over the run: Escape closes it (and is marked
        // handled, so the run's own Escape-to-abort does not fire as well).
        if (e.key !== 'Escape' || !drawerOpen || !onCloseDrawer) return;
        e.preventDefault();
        onCloseDrawer();
      }}
    >
      {/* Sticky with Run: why Run is off stays in sight wherever the panel is scrolled to. */}
      <div className="sticky top-0 z-10 border-b border-line bg-panel">
        <div className="flex gap-2 px-3 py-2">
          <Button
            variant="primary"
            data-testid="run-button"
            onClick={onRun}
            disabled={starting || blocked.length > 0}
            aria-describedby={blocked.length > 0 ? 'run-blocked' : undefined}
            title={blocked.length > 0 ? 'Run waits until every field is allowed' : 'run (r)'}
            className="flex-1"
          >
            {starting ? 'Starting…' : 'Run'}
          </Button>
          <Button
            variant="danger"
            data-testid="abort-button"
            onClick={onAbort}
            disabled={!running}
            title="abort (a / Esc)"
          >
            Abort
          </Button>
          {onCloseDrawer && (
            <Button
              onClick={onCloseDrawer}
              title="close the controls"
              aria-label="close the controls"
              className="md:hidden"
              data-testid="controls-close"
            >
              ✕
            </Button>
          )}
        </div>
        {blocked.length > 0 && (
          <div
            id="run-blocked"
            data-testid="run-blocked"
            className="border-t border-fail/40 max-h-32 overflow-y-auto bg-fail-soft px-3 py-2 text-2xs text-fail"
          >
            <div className="font-medium">
              Run waits until {blocked.length === 1 ? 'this field is' : 'these fields are'} fixed:
            </div>
            {blocked.map((p) => (
              <div key={p.field} className="break-words">
                {p.label} {p.message}
              </div>
            ))}
          </div>
        )}
      </div>
      {errors.length > 0 && (
        <div
          data-testid="run-errors"
          className="border-b border-fail/40 bg-fail-soft px-3 py-2 text-2xs text-fail"
        >
          {errors.map((e, i) => (
            <div key={i} className="font-mono break-words">
              {e}
            </div>
          ))}
        </div>
      )}
      {/* The first screen holds what a run is made of most often: scenario, preset, faults (and Run
          above). The rarer parts follow, folded where they are long. */}
      <Section title="Scenario">
        <ScenarioPicker value={form.scenario} onChange={(scenario) => onChange({ scenario })} />
        {isSimulated(form.vendor) && (
          <PolicyPicker value={form.policy} onChange={(policy) => onChange({ policy })} />
        )}
        <Fold
          id="task"
          title="task"
          summary={
            form.task.trim() ? `your own (${form.task.trim().length} characters)` : 'the scenario’s own'
          }
        >
          <TaskField
            scenario={form.scenario}
            value={form.task}
            onChange={(task) => onPromptChange({ task })}
          />
        </Fold>
      </Section>
      <Section title="Recovery">
        <PresetPicker value={form.preset} onChange={(preset) => onChange({ preset, overrides: {} })} />
      </Section>
      <Section title="Faults">
        <FaultToggles
          enabled={form.faults}
          live={live}
          onChange={onFaultsChange}
          toolTarget={form.toolFaultTarget}
          onToolTargetChange={onToolFaultTargetChange}
        />
      </Section>
      <Section
        title="Recovery parameters"
        right={
          overrideCount > 0 ? (
            <span className="text-2xs text-takeover">
              {overrideCount} {overrideCount === 1 ? 'override' : 'overrides'}
            </span>
          ) : undefined
        }
      >
        <RetryRulesTable
          config={resolveRecovery(form.preset, form.overrides)}
          title="retry rules (this configuration)"
        />
        <PolicyEditor
          preset={form.preset}
          overrides={form.overrides}
          onChange={(overrides) => onChange({ overrides })}
        />
        <RecoveryParams
          preset={form.preset}
          overrides={form.overrides}
          onChange={(overrides) => onChange({ overrides })}
        />
      </Section>
      <Section title="Provider">
        <VendorFields form={form} onChange={onChange} disabled={live} />
        {live && <SwapControl runId={runId} current={current} onSwap={onSwap} pending={swapPending} />}
        {swapAsk && <SwapOutcomeLine ask={swapAsk} />}
        <Fold id="takeover" title="takeover on a swap" summary={takeoverSummary(form)}>
          <TakeoverFields form={form} onChange={onChange} disabled={live} />
        </Fold>
        <PlannedSwaps form={form} onChange={onChange} disabled={live} />
      </Section>
      <Section title="Prompt">
        <PromptSetPicker form={form} onChange={onChange} />
        <PromptFields form={form} onChange={onPromptChange} />
      </Section>
      <Section title="Structured answer">
        <AnswerFields form={form} onChange={onChange} disabled={live} />
      </Section>
      <Section title="Run">
        <RunSettings form={form} onChange={onChange} />
      </Section>
      <Section title="Breakpoints and approval">
        <PauseFields form={form} onChange={onChange} live={live} onBreakpoints={onBreakpoints} />
      </Section>
      <Section title="Budgets">
        <BudgetFields budgets={form.budgets} onChange={(budgets) => onChange({ budgets })} />
        <OutputCapField
          value={form.maxOutputTokens}
          onChange={(maxOutputTokens) => onChange({ maxOutputTokens })}
        />
      </Section>
    </aside>
  );
}

/** The takeover options in one line: what a swap would do with the history now. */
function takeoverSummary(form: PlaygroundForm): string {
  if (form.naiveTakeover) return 'naive: history sent as it was, credentials included';
  const off = form.takeoverRulesOff.length;
  const thinking =
    form.foreignThinking === 'note' ? 'foreign thinking kept as a note' : 'foreign thinking dropped';
  return off > 0
    ? `${thinking}; ${off} ${off === 1 ? 'safeguard' : 'safeguards'} off`
    : `${thinking}; every safeguard on`;
}
