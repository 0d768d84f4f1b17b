'use client';

import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import type { PauseConfigInput } from '@/lib/protocol/pause';
import { BREAKABLE_EVENTS, type BreakableEvent } from '@/lib/protocol/pause-words';
import { Field, INPUT } from './field';

type Approval = 'off' | 'all' | 'writes';

/**
 * Hands on the run: a breakpoint on an event kind, and which tool calls wait for approval. Set
 * before a run, they go in its config; changed while it runs, the breakpoint is sent to the run
 * (`onBreakpoints`) and takes effect at once. Other breakpoints (before request N, a named tool, a
 * cost over a line) are set from the HTTP API or the command line.
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
  const breakOn = pause.breakpoints?.find((b) => b.on === 'event');
  const event = breakOn?.on === 'event' ? breakOn.event : '';
  const tools = pause.approval?.tools;
  const approval: Approval = tools === 'all' || tools === 'writes' ? tools : 'off';
  const update = (next: PauseConfigInput) => {
    const empty = (next.breakpoints?.length ?? 0) === 0 && !next.approval;
    onChange({ pause: empty ? null : next });
    if (live) onBreakpoints(next);
  };
  return (
    <div className="grid grid-cols-2 items-start gap-2">
      <Field label="break on event">
        <select
          data-testid="break-on-select"
          className={INPUT}
          value={event}
          onChange={(e) => {
            const kind = e.target.value as BreakableEvent | '';
            const others = (pause.breakpoints ?? []).filter((b) => b.on !== 'event');
            update({
              ...pause,
              breakpoints: kind ? [...others, { on: 'event', event: kind }] : others,
            });
          }}
          title="the run pauses after an event of this kind is written, its clock held, until you step, continue or cancel"
        >
          <option value="">none</option>
          {BREAKABLE_EVENTS.map((kind) => (
            <option key={kind} value={kind}>
              {kind}
            </option>
          ))}
        </select>
      </Field>
      <Field label="approve tools">
        <select
          data-testid="approval-select"
          className={INPUT}
          value={approval}
          disabled={live}
          onChange={(e) => {
            const value = e.target.value as Approval;
            const { approval: _old, ...rest } = pause;
            update(value === 'off' ? rest : { ...rest, approval: { tools: value } });
          }}
          title="calls that wait, paused, for you to approve, deny or edit them"
        >
          <option value="off">off</option>
          <option value="writes">writes</option>
          <option value="all">all</option>
        </select>
      </Field>
    </div>
  );
}
