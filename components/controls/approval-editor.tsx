'use client';

/** Which tool calls wait for approval, and what happens when nobody decides. */
import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import {
  APPROVAL_TIMEOUT_RULE,
  approvalMode,
  approvalProblems,
  withApproval,
  type ApprovalMode,
} from '@/lib/client/forms/pause-form';
import { rangeWords, typedNumber } from '@/lib/client/forms/number-checks';
import type { PauseConfigInput } from '@/lib/protocol/pause';
import { Field, INPUT } from './field';

const MODE_LABELS: Record<ApprovalMode, string> = {
  off: 'off: tools run without asking',
  writes: 'writes: calls that change the workspace',
  all: 'all: every tool call',
  named: 'named: only the tools ticked below',
};

export function ApprovalEditor({
  form,
  tools,
  live,
  onChange,
}: {
  form: PlaygroundForm;
  tools: string[];
  live: boolean;
  onChange: (next: PauseConfigInput | null) => void;
}) {
  const pause = form.pause ?? {};
  const approval = pause.approval;
  const mode = approvalMode(approval);
  const named = Array.isArray(approval?.tools) ? approval.tools : [];
  const timeoutSec = approval?.timeoutMs !== undefined ? approval.timeoutMs / 1000 : undefined;
  const timeoutError = approvalProblems(form.pause).find(
    (p) => p.field === 'approval-timeout-seconds',
  )?.message;
  const set = (patch: { mode?: ApprovalMode; tools?: string[]; timeoutSec?: number | null }) =>
    onChange(
      withApproval(pause, {
        mode: patch.mode ?? mode,
        tools: patch.tools ?? named,
        timeoutSec: patch.timeoutSec === undefined ? (timeoutSec ?? null) : patch.timeoutSec,
      }),
    );

  return (
    <div className="flex flex-col gap-1.5" data-testid="approval">
      <Field
        label="tool approval"
        hint={
          live
            ? 'fixed when the run started: change it for the next run'
            : 'a call that needs approval waits, its arguments in view, for you to approve, deny (with a message the model receives) or edit it'
        }
      >
        <select
          data-testid="approval-select"
          className={INPUT}
          value={mode}
          disabled={live}
          onChange={(e) => set({ mode: e.target.value as ApprovalMode })}
        >
          {(Object.keys(MODE_LABELS) as ApprovalMode[]).map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </select>
      </Field>
      {mode === 'named' && (
        <fieldset className="flex flex-col gap-0.5" disabled={live} data-testid="approval-tools">
          <legend className="text-2xs font-medium text-muted">tools that wait for approval</legend>
          {tools.length === 0 && <span className="text-2xs text-faint">Loading the tools…</span>}
          <div className="grid grid-cols-2 gap-x-2">
            {tools.map((t) => (
              <label key={t} className="flex items-center gap-1.5 font-mono text-2xs">
                <input
                  type="checkbox"
                  data-testid={`approval-tool-${t}`}
                  checked={named.includes(t)}
                  onChange={(e) =>
                    set({ tools: e.target.checked ? [...named, t] : named.filter((n) => n !== t) })
                  }
                />
                {t}
              </label>
            ))}
          </div>
          {named.length === 0 && (
            <span className="text-2xs text-fail" data-testid="approval-tools-error">
              tick at least one tool, or choose another approval setting
            </span>
          )}
        </fieldset>
      )}
      {mode !== 'off' && (
        <div className="grid grid-cols-2 items-start gap-2">
          <Field label="if nobody decides">
            <select
              data-testid="approval-timeout"
              className={INPUT}
              value={timeoutSec === undefined ? 'wait' : 'deny'}
              disabled={live}
              onChange={(e) => set({ timeoutSec: e.target.value === 'wait' ? null : 60 })}
            >
              <option value="wait">wait for me</option>
              <option value="deny">deny after…</option>
            </select>
          </Field>
          {timeoutSec !== undefined && (
            <Field
              label="deny after (s of run time)"
              testId="approval-timeout-seconds"
              range={rangeWords(APPROVAL_TIMEOUT_RULE)}
              error={timeoutError}
            >
              <input
                data-testid="approval-timeout-seconds"
                type="number"
                min={APPROVAL_TIMEOUT_RULE.min}
                max={APPROVAL_TIMEOUT_RULE.max}
                step="any"
                className={INPUT}
                disabled={live}
                aria-invalid={timeoutError !== undefined}
                value={Number.isNaN(timeoutSec) ? '' : timeoutSec}
                onChange={(e) => set({ timeoutSec: typedNumber(e.target.value) })}
              />
            </Field>
          )}
        </div>
      )}
      {mode !== 'off' && (
        <span className="text-2xs text-faint" data-testid="approval-timeout-words">
          {timeoutSec === undefined
            ? 'The run waits paused, its clock held, however long it takes you.'
            : 'The run clock keeps running while the call waits; that much run time later the call is denied and the model is told. On the virtual clock nothing else runs, so that is at once.'}
        </span>
      )}
    </div>
  );
}
