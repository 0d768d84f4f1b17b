'use client';

/** The run's breakpoints: the list set, and a row to add one (an event kind, request N, a tool call, a cost). */
import { useState } from 'react';
import { BREAKPOINT_RULES, breakpointFrom, type BreakpointKind } from '@/lib/client/forms/pause-form';
import { checkNumber, rangeWords, typedNumber } from '@/lib/client/forms/number-checks';
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

export function BreakpointEditor({
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
