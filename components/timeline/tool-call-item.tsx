'use client';

import { formatMs } from '@/lib/run-view/format';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import type { CallMark, ToolCallView } from '@/lib/run-view/run-view-state';
import { LongText } from '@/components/ui/long-text';
import { Pill } from '@/components/ui/pill';
import { toolTone } from '@/components/ui/tone';
import { WhyLine } from '@/components/explain/why-line';
import { EditForkPanel } from './edit-fork-panel';
import { useState } from 'react';

/**
 * A tool call: what the model asked for and, once run, what came back; and the marks
 * mechanisms put on it (the group it ran in, what the loop did when its result never came
 * back, …: each mark a pill, and its why line under the first call it marks). At a turn a fork can
 * start after (`forkAt`), "Edit & fork" changes the result the model receives and forks there; a
 * result a fork edited shows what the tool returned and what the fork sent instead.
 */
export function ToolCallItem({
  name,
  argsText,
  call,
  marks = [],
  onSelect,
  forkAt,
}: {
  name: string;
  argsText: string;
  call?: ToolCallView;
  marks?: readonly CallMark[];
  onSelect?: () => void;
  /** The turn a fork may start after, when this call's turn is one. */
  forkAt?: number;
}) {
  const runId = useRunStore((s) => s.view.runId);
  const [editing, setEditing] = useState(false);
  const status = call?.status ?? 'requested';
  const callId = call?.callId;
  // A mark's why line is shown once, under the first call it marks.
  const whyLines = (place: CallMark['whyLine']) =>
    marks
      .filter((m) => m.whyLine === place && m.callIds[0] === callId)
      .map((m) => <WhyLine key={m.seq} seq={m.seq} className="mt-0.5" linked />);
  const stubSince = useRunStore((s) => (callId ? s.view.context.stubSince[callId] : undefined));
  return (
    <div
      data-testid="tool-call"
      data-status={status}
      data-tool={name}
      className="rounded border border-line bg-sunken/60 px-2 py-1"
    >
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" onClick={onSelect} className="font-mono text-xs font-semibold hover:underline">
          ⚙ {name}
        </button>
        <Pill tone={call ? toolTone(call.status) : 'neutral'}>{status}</Pill>
        {call?.latencyMs !== undefined && (
          <span className="tabular font-mono text-2xs text-muted">{formatMs(call.latencyMs)}</span>
        )}
        {call?.resultChars !== undefined && (
          <span className="tabular font-mono text-2xs text-muted">
            {call.resultChars.toLocaleString('en-US')} chars
          </span>
        )}
        {call?.truncatedChars ? (
          <Pill tone="compact" title="output cut by the safe executor">
            truncated {call.truncatedChars.toLocaleString('en-US')} chars
          </Pill>
        ) : null}
        {call?.repaired ? (
          <Pill
            tone="compact"
            testId="repaired"
            title="the repair ladder fixed the arguments before the call ran; the model was not asked again"
          >
            repaired:{' '}
            {call.repaired.map((r) => (r === 'json' ? 'JSON text' : 'coerced to schema')).join(' + ')}
          </Pill>
        ) : null}
        {marks.map((m) =>
          m.pill ? (
            <Pill key={m.seq} tone={m.pill.tone} testId={m.pill.testId} title={m.why}>
              {m.pill.text}
            </Pill>
          ) : null,
        )}
        {stubSince !== undefined && (
          <Pill
            tone="compact"
            title="the log keeps the full result; requests since then carry a stub that says how to get it back"
          >
            sent to the model as a stub since turn {stubSince}
          </Pill>
        )}
      </div>
      {call?.repairs?.map((r) => (
        <WhyLine key={r.seq} seq={r.seq} className="mt-0.5" linked />
      ))}
      {whyLines('before')}
      <WhyLine seq={call?.seq} className="mt-0.5" linked />
      {whyLines('after')}
      <LongText text={argsText} max={300} className="mt-0.5 text-muted" />
      {call?.result !== undefined && (
        <div className={`mt-1 border-l-2 pl-2 ${call.isError ? 'border-fail' : 'border-ok'}`}>
          {call.edit && <div className="text-2xs text-faint">what the tool returned</div>}
          <LongText text={call.result} max={400} />
        </div>
      )}
      {call?.edit && (
        <div
          data-testid="edited-result"
          className={`mt-1 border-l-2 pl-2 ${call.edit.isError ? 'border-fail' : 'border-wait'}`}
        >
          <div className="flex items-center gap-2 text-2xs">
            <Pill tone="compact" title={call.edit.next}>
              edited by {call.edit.by}
            </Pill>
            <span className="text-muted">{call.edit.next}</span>
          </div>
          <LongText text={call.edit.after} max={400} />
        </div>
      )}
      {forkAt !== undefined && runId && call?.callId && call.result !== undefined && (
        <div className="mt-1">
          {editing ? (
            <EditForkPanel
              runId={runId}
              atTurn={forkAt}
              target={{
                kind: 'tool_result',
                callId: call.callId,
                tool: name,
                content: call.edit?.after ?? call.result,
                isError: call.edit?.isError ?? call.isError ?? false,
              }}
              onClose={() => setEditing(false)}
            />
          ) : (
            <button
              type="button"
              data-testid="edit-fork-open"
              className="text-2xs text-muted underline hover:text-fg"
              title={`change the result the model received, then fork this run after turn ${forkAt}`}
              onClick={() => setEditing(true)}
            >
              Edit &amp; fork…
            </button>
          )}
        </div>
      )}
    </div>
  );
}
