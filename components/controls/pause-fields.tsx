'use client';

import { useState } from 'react';
import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import {
  APPROVAL_TIMEOUT_RULE,
  BREAKPOINT_RULES,
  approvalMode,
  approvalProblems,
  breakpointFrom,
  withApproval,
  withBreakpoints,
  type ApprovalMode,
  type BreakpointKind,
} from '@/lib/client/forms/pause-form';
import { checkNumber, rangeWords, typedNumber } from '@/lib/client/forms/number-checks';
import { useScenarios } from '@/lib/client/api/runs';
import type { PauseConfigInput } from '@/lib/protocol/pause';
import { BREAKABLE_EVENTS, describeBreakpoint, type BreakableEvent } from '@/lib/protocol/pause-words';
import { Button } from '@/components/ui/button';
import { Field, INPUT } from './field';

const KIND_LABELS: Record<BreakpointKind, string> = {
  event: 'on an event',
  request: 'before request N',
  tool: 'before a tool call',
  cost: 'when the cost is over',
};

const KIND_HINTS: Record<BreakpointKind, string> = {
  event:
    'pauses just after an event of this kind is written, at the next point the run can wait (a wait, a request, a tool call)',
  request:
    'pauses before the Nth model request goes out; every request counts, retries and background calls too',
  tool: 'pauses before the call runs, with its arguments in view',
  cost: 'pauses once the run has spent more than this many dollars',
};

/**
 * Hands on the run: breakpoints (before request N, before a tool call, on an event kind, over a
 * cost) and which tool calls wait for approval. Set before a run, they go in its config; changed
 * while it runs, the breakpoints are sent to the run (`onBreakpoints`, the control API's
 * set_breakpoints) and take effect at once. Approval is fixed when the run starts.
 */
export function PauseFields({
  form,
  onChange,
  live,
  onBreakpoints,
}: {
  form: PlaygroundForm;
  onChange: (patch: Partial<PlaygroundForm>) => void;
  live: boolean;
  onBreakpoints: (pause: PauseConfigInput) => void;
}) {
  const pause = form.pause ?? {};
  const breakpoints = pause.breakpoints ?? [];
  const { data } = useScenarios();
  const tools = data?.find((s) => s.id === form.scenario)?.tools.map((t) => t.name) ?? [];
  const update = (next: PauseConfigInput | null) => {
    onChange({ pause: next });
    if (live) onBreakpoints(next ?? {});
  };

  return (
    <div className="flex flex-col gap-3">
      <BreakpointEditor
        breakpoints={breakpoints}
        tools={tools}
        live={live}
        onChange={(next) => update(withBreakpoints(pause, next))}
      />
      <ApprovalEditor form={form} tools={tools} live={live} onChange={(next) => update(next)} />
    </div>
  );
}

function BreakpointEditor({
  breakpoints,
  tools,
  live,
  onChange,
}: {
  breakpoints: NonNullable<PauseConfigInput['breakpoints']>;
  tools: string[];
  live: boolean;
  onChange: (next: NonNullable<PauseConfigInput['breakpoints']>) => void;
}) {
  const [kind, setKind] = useState<BreakpointKind>('event');
  const [event, setEvent] = useState<BreakableEvent>('retry_scheduled');
  const [tool, setTool] = useState('');
  const [request, setRequest] = useState(1);
  const [usd, setUsd] = useState(0.05);
  const numberError =
    kind === 'request'
      ? checkNumber(request, BREAKPOINT_RULES.request)
      : kind === 'cost'
        ? checkNumber(usd, BREAKPOINT_RULES.cost)
        : undefined;
  const next = breakpointFrom({ kind, event, tool, request, usd });
  const words = next ? describeBreakpoint(next) : undefined;
  const already = words !== undefined && breakpoints.some((b) => describeBreakpoint(b) === words);

  return (
    <div className="flex flex-col gap-1.5" data-testid="breakpoints">
      <div className="flex flex-col gap-0.5">
        <span className="text-2xs font-medium text-muted">breakpoints</span>
        <span className="text-2xs text-faint">
          The run pauses there with its clock held, until you step (one event), continue or cancel.
          {live && <span className="text-takeover"> Live: a change goes to the running run at once.</span>}
        </span>
      </div>
      {breakpoints.length === 0 ? (
        <span className="text-2xs text-faint" data-testid="breakpoint-none">
          none set
        </span>
      ) : (
        <ul className="flex flex-wrap gap-1" data-testid="breakpoint-list">
          {breakpoints.map((b, i) => (
            <li
              key={`${describeBreakpoint(b)}-${i}`}
              data-testid="breakpoint-item"
              className="flex items-center gap-1 rounded border border-wait/60 bg-wait/10 px-1.5 py-0.5 text-2xs"
            >
              <span>{describeBreakpoint(b)}</span>
              <button
                type="button"
                data-testid="breakpoint-remove"
                className="text-faint hover:text-fail"
                aria-label={`remove the breakpoint ${describeBreakpoint(b)}`}
                title="remove"
                onClick={() => onChange(breakpoints.filter((_, k) => k !== i))}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid grid-cols-2 items-start gap-2">
        <Field label="pause">
          <select
            data-testid="breakpoint-kind"
            className={INPUT}
            value={kind}
            onChange={(e) => setKind(e.target.value as BreakpointKind)}
          >
            {(Object.keys(KIND_LABELS) as BreakpointKind[]).map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </Field>
        {kind === 'event' && (
          <Field label="event kind">
            <select
              data-testid="breakpoint-event"
              className={INPUT}
              value={event}
              onChange={(e) => setEvent(e.target.value as BreakableEvent)}
            >
              {BREAKABLE_EVENTS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </Field>
        )}
        {kind === 'tool' && (
          <Field label="tool">
            <select
              data-testid="breakpoint-tool"
              className={INPUT}
              value={tool}
              onChange={(e) => setTool(e.target.value)}
            >
              <option value="">any tool</option>
              {tools.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </Field>
        )}
        {kind === 'request' && (
          <Field
            label="request number"
            testId="breakpoint-request"
            range={rangeWords(BREAKPOINT_RULES.request)}
            error={numberError}
          >
            <input
              data-testid="breakpoint-request"
              type="number"
              min={BREAKPOINT_RULES.request.min}
              max={BREAKPOINT_RULES.request.max}
              step={1}
              className={INPUT}
              aria-invalid={numberError !== undefined}
              value={Number.isNaN(request) ? '' : request}
              onChange={(e) => setRequest(typedNumber(e.target.value))}
            />
          </Field>
        )}
        {kind === 'cost' && (
          <Field
            label="cost over ($)"
            testId="breakpoint-cost"
            range={rangeWords(BREAKPOINT_RULES.cost)}
            error={numberError}
          >
            <input
              data-testid="breakpoint-cost"
              type="number"
              min={BREAKPOINT_RULES.cost.min}
              max={BREAKPOINT_RULES.cost.max}
              step="any"
              className={INPUT}
              aria-invalid={numberError !== undefined}
              value={Number.isNaN(usd) ? '' : usd}
              onChange={(e) => setUsd(typedNumber(e.target.value))}
            />
          </Field>
        )}
      </div>
      <div className="flex items-start gap-2">
        <span className="flex-1 text-2xs text-faint">{KIND_HINTS[kind]}</span>
        <Button
          data-testid="breakpoint-add"
          disabled={!next || already || numberError !== undefined || breakpoints.length >= 50}
          title={already ? 'this breakpoint is set already' : `add: ${words ?? ''}`}
          onClick={() => next && onChange([...breakpoints, next])}
        >
          Add
        </Button>
      </div>
    </div>
  );
}

const MODE_LABELS: Record<ApprovalMode, string> = {
  off: 'off: tools run without asking',
  writes: 'writes: calls that change the workspace',
  all: 'all: every tool call',
  named: 'named: only the tools ticked below',
};

function ApprovalEditor({
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
