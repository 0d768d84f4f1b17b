'use client';

import Link from 'next/link';
import { memo, useCallback } from 'react';
import { formatMs, formatTokens, formatUsd } from '@/lib/run-view/format';
import { useRunStore, useRunStoreApi } from '@/lib/client/run-view/run-store-provider';
import type { AttemptView, ToolCallView } from '@/lib/run-view/run-view-state';
import { selectTurn } from '@/lib/client/run-view/selectors';
import { runTurnHref } from '@/lib/client/hooks/use-turn-from-url';
import { Pill } from '@/components/ui/pill';
import { TONE_PILL } from '@/components/ui/tone';
import { groupBackgroundCalls } from '@/lib/client/run-view/group-background-calls';
import { retriedFailures } from '@/lib/client/run-view/retried-failures';
import { WhyLine } from '@/components/explain/why-line';
import { BackgroundCallCard } from './background-call-card';
import { OutputSteps } from './output-steps';
import { RecoveryLadder } from './recovery-ladder';
import { TurnContent } from './turn-content';

const GUARD_TONE = {
  warning: 'wait',
  blocked: 'wait',
  short_circuit: 'wait',
  disabled: 'fail',
  halt: 'fail',
  rate_limited: 'wait',
} as const;

/** One iteration: what the model saw and said, and the recovery inside it. */
export const TurnCard = memo(function TurnCard({ iteration }: { iteration: number }) {
  const turn = useRunStore(selectTurn(iteration));
  const selected = useRunStore((s) => s.selection?.kind === 'turn' && s.selection.iteration === iteration);
  const ended = useRunStore((s) => s.view.terminate !== undefined);
  // A fork's turns 1..k are the parent's, copied into this log.
  const parentRunId = useRunStore((s) =>
    s.view.forkedFrom && iteration <= s.view.forkedFrom.turn ? s.view.forkedFrom.parentRunId : undefined,
  );
  const api = useRunStoreApi();
  const selectAttempt = useCallback(
    (a: AttemptView) => {
      api.getState().select({ kind: 'attempt', iteration, requestNo: a.requestNo });
      api.getState().setInspectorOpen(true);
    },
    [api, iteration],
  );
  const selectTool = useCallback(
    (c: ToolCallView) => {
      api.getState().select({ kind: 'tool', iteration, key: c.key });
      api.getState().setInspectorOpen(true);
    },
    [api, iteration],
  );
  if (!turn) return null;
  const r = turn.result;
  // The turn's own call only: background calls (title, summary) get their own card below.
  const fg = turn.attempts.filter((a) => !a.background);
  const background = groupBackgroundCalls(turn.attempts, ended);
  const failedCount = retriedFailures(fg);
  const truncated = r?.stopReason === 'max_tokens' || r?.stopReason === 'context_window' || r?.partial;
  const live = fg.find((a) => a.endTs === undefined);
  const waiting = !ended && !live && !r && fg.length > 0 && fg[fg.length - 1]!.retry !== undefined;

  return (
    <>
      <article
        data-testid="turn-card"
        data-iteration={iteration}
        data-selected={selected || undefined}
        className={`rounded border bg-panel px-3 py-2 ${selected ? 'border-fg' : 'border-line'}`}
      >
        <header className="mb-1.5 flex flex-wrap items-center gap-2">
          <button
            type="button"
            className="text-xs font-semibold hover:underline"
            aria-pressed={selected}
            title="show this turn's details in the inspector (i)"
            onClick={() => {
              api.getState().select({ kind: 'turn', iteration });
              api.getState().setInspectorOpen(true);
            }}
          >
            Turn {iteration}
          </button>
          {parentRunId && (
            <Link
              data-testid="from-parent"
              href={runTurnHref(parentRunId, iteration)}
              className={`inline-flex items-center rounded border px-1.5 py-px font-mono text-2xs leading-4 whitespace-nowrap hover:underline ${TONE_PILL.takeover}`}
              title={`copied from run ${parentRunId}, where it is turn ${iteration}: open it there`}
            >
              from parent
            </Link>
          )}
          {live && <Pill tone="run">{live.outcome === 'pending' ? 'requesting' : 'streaming'}</Pill>}
          {r && (
            <Pill
              tone={r.stopReason === 'end_turn' ? 'ok' : r.stopReason === 'tool_use' ? 'neutral' : 'wait'}
            >
              stop: {r.stopReason}
            </Pill>
          )}
          {failedCount > 0 &&
            (r ? (
              <Pill tone="ok" title="attempts failed, then the call succeeded">
                recovered after {failedCount} failed
              </Pill>
            ) : live || waiting ? (
              <Pill tone="wait">retrying</Pill>
            ) : (
              <Pill tone="fail">error</Pill>
            ))}
          {truncated && <Pill tone="wait">{r?.partial ? 'partial (kept)' : 'truncated'}</Pill>}
          <span className="tabular ml-auto flex gap-3 font-mono text-2xs text-muted">
            {r && (
              <>
                <span title="input / output tokens">
                  {formatTokens(r.inputTokens)} / {formatTokens(r.outputTokens)} tok
                </span>
                <span title="latency of the kept attempt">{formatMs(r.latencyMs)}</span>
                {r.usd !== undefined && <span>{formatUsd(r.usd)}</span>}
                {r.model && <span>{r.model}</span>}
              </>
            )}
            <span title="attempts of this turn's model call (background calls are counted on their own cards)">
              {fg.length} {fg.length === 1 ? 'attempt' : 'attempts'}
            </span>
          </span>
        </header>
        <div className="mb-1.5 flex flex-col gap-1">
          <RecoveryLadder attempts={fg} onSelect={selectAttempt} />
          {turn.fallbacks.map((f) => (
            <div key={f.ts} className="text-2xs text-takeover">
              ⇄ fallback {f.fromModel} → {f.toModel}: {f.reason}
              <WhyLine seq={f.seq} linked />
            </div>
          ))}
          <OutputSteps steps={turn.outputSteps} />
          {turn.guards.map((g, i) => (
            <div key={i} className="flex flex-wrap items-center gap-x-2 text-2xs" data-testid="guard">
              <Pill tone={GUARD_TONE[g.kind]}>guard: {g.kind}</Pill>
              <span className="font-mono">{g.tool}</span>
              <span className="text-muted">{g.reason}</span>
              {g.next !== undefined && <span className="text-faint">{g.next}</span>}
              {g.budgetLeft !== undefined && <span className="text-faint">budget left {g.budgetLeft}</span>}
              <WhyLine seq={g.seq} className="w-full" linked />
            </div>
          ))}
        </div>
        <TurnContent turn={turn} onSelectTool={selectTool} />
      </article>
      {background.map((call) => (
        <BackgroundCallCard key={call.key} call={call} iteration={iteration} onSelect={selectAttempt} />
      ))}
    </>
  );
});
