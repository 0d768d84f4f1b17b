'use client';

import { formatMs } from '@/lib/run-view/format';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import type { DanglingView, ToolBatchView, ToolCallView } from '@/lib/run-view/run-view-state';
import { LongText } from '@/components/ui/long-text';
import { Pill } from '@/components/ui/pill';
import { toolTone } from '@/components/ui/tone';
import { WhyLine } from '@/components/explain/why-line';

/**
 * A tool call: what the model asked for and, once run, what came back; the group it ran in
 * when its turn had several calls, and what the loop did when its result never came back.
 */
export function ToolCallItem({
  name,
  argsText,
  call,
  batch,
  dangling,
  onSelect,
}: {
  name: string;
  argsText: string;
  call?: ToolCallView;
  batch?: ToolBatchView;
  dangling?: DanglingView;
  onSelect?: () => void;
}) {
  const status = call?.status ?? 'requested';
  const callId = call?.callId;
  // A group's or a cut turn's why line is shown once, under its first call.
  const firstOfBatch = batch !== undefined && batch.callIds[0] === callId;
  const firstDangling = dangling !== undefined && dangling.callIds[0] === callId;
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
        {batch?.parallel ? (
          <Pill tone="neutral" testId="parallel" title={batch.why}>
            ∥ ran at once with {batch.callIds.length - 1} other{batch.callIds.length === 2 ? '' : 's'}
          </Pill>
        ) : null}
        {dangling ? (
          <Pill tone={dangling.repaired ? 'compact' : 'fail'} testId="dangling" title={dangling.why}>
            {dangling.repaired ? 'no result: answered with a synthetic error' : 'no result: sent unanswered'}
          </Pill>
        ) : null}
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
      {firstOfBatch && <WhyLine seq={batch.seq} className="mt-0.5" linked />}
      <WhyLine seq={call?.seq} className="mt-0.5" linked />
      {firstDangling && <WhyLine seq={dangling.seq} className="mt-0.5" linked />}
      <LongText text={argsText} max={300} className="mt-0.5 text-muted" />
      {call?.result !== undefined && (
        <div className={`mt-1 border-l-2 pl-2 ${call.isError ? 'border-fail' : 'border-ok'}`}>
          <LongText text={call.result} max={400} />
        </div>
      )}
    </div>
  );
}
