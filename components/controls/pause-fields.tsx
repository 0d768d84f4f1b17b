'use client';

import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import { withBreakpoints } from '@/lib/client/forms/pause-form';
import { useScenarios } from '@/lib/client/api/runs';
import type { PauseConfigInput } from '@/lib/protocol/pause';
import { ApprovalEditor } from './approval-editor';
import { BreakpointEditor } from './breakpoint-editor';

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
