'use client';

import { memo, useCallback } from 'react';
import { formatMs, formatTokens, formatUsd } from '@/lib/client/format';
import { useRunStore, useRunStoreApi } from '@/lib/client/run-store-provider';
import type { AttemptView, ToolCallView } from '@/lib/client/run-view-state';
import { selectTurn } from '@/lib/client/selectors';
import { Pill } from '@/components/ui/pill';
import { OutputSteps } from './output-steps';
import { RecoveryLadder } from './recovery-ladder';
import { TurnContent } from './turn-content';

const GUARD_TONE = { warning: 'wait', blocked: 'wait', short_circuit: 'wait', disabled: 'fail', halt: 'fail' } as const;

/** One iteration: what the model saw and said, and the recovery inside it. */
export const TurnCard = memo(function TurnCard({ iteration }: { iteration: number }) {
  const turn = useRunStore(selectTurn(iteration));
  const selected = useRunStore((s) => s.selection?.kind === 'turn' && s.selection.iteration === iteration);
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
  const failed = turn.attempts.some((a) => a.error);
  const truncated = r?.stopReason === 'max_tokens' || r?.stopReason === 'context_window' || r?.partial;
  const open = turn.attempts.some((a) => a.endTs === undefined);
  const fg = turn.attempts.filter((a) => !a.background);
  const bg = turn.attempts.filter((a) => a.background);

  return (
    <article
      data-testid="turn-card"
      data-iteration={iteration}
      className={`rounded border bg-panel px-3 py-2 ${selected ? 'border-fg' : 'border-line'}`}
    >
      <header className="mb-1.5 flex flex-wrap items-center gap-2">
        <button
          type="button"
          className="text-xs font-semibold hover:underline"
          onClick={() => api.getState().select({ kind: 'turn', iteration })}
        >
          Turn {iteration}
        </button>
        {open && <Pill tone="run">streaming</Pill>}
        {r && <Pill tone={r.stopReason === 'end_turn' ? 'ok' : r.stopReason === 'tool_use' ? 'neutral' : 'wait'}>stop: {r.stopReason}</Pill>}
        {failed &&
          (r ? (
            <Pill tone="ok" title="attempts failed, then the call succeeded">
              recovered after {turn.attempts.filter((a) => a.error || a.watchdog?.fired).length} failed
            </Pill>
          ) : open ? (
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
          <span title="attempts">{turn.attempts.length} att.</span>
        </span>
      </header>
      <div className="mb-1.5 flex flex-col gap-1">
        <RecoveryLadder attempts={fg} onSelect={selectAttempt} />
        {bg.length > 0 && <RecoveryLadder attempts={bg} onSelect={selectAttempt} />}
        {turn.fallbacks.map((f) => (
          <div key={f.ts} className="text-2xs text-takeover">
            ⇄ fallback {f.fromModel} → {f.toModel}: {f.reason}
          </div>
        ))}
        <OutputSteps steps={turn.outputSteps} />
        {turn.guards.map((g, i) => (
          <div key={i} className="flex items-center gap-2 text-2xs">
            <Pill tone={GUARD_TONE[g.kind]}>guard: {g.kind}</Pill>
            <span className="font-mono">{g.tool}</span>
            <span className="text-muted">{g.reason}</span>
            {g.budgetLeft !== undefined && <span className="text-faint">budget left {g.budgetLeft}</span>}
          </div>
        ))}
      </div>
      <TurnContent turn={turn} onSelectTool={selectTool} />
    </article>
  );
});
