'use client';

import type { NestedRunView, TurnView } from '@/lib/run-view/run-view-state';
import { formatTokens, formatUsd } from '@/lib/run-view/format';
import { LongText } from '@/components/ui/long-text';
import { Pill } from '@/components/ui/pill';
import type { Tone } from '@/components/ui/tone';

const OUTCOME_TONE: Record<string, Tone> = {
  answered: 'ok',
  budget_spent: 'fail',
  looped: 'fail',
  vendor_failed: 'wait',
  stopped: 'fail',
};

/**
 * The loops a tool call started (sub-agents), nested under it: one collapsible block per try,
 * with the child's turns as its own events folded them, and its end in the end event's words
 * (the parent's decision and its reason).
 */
export function NestedRuns({ runs }: { runs: readonly NestedRunView[] }) {
  if (runs.length === 0) return null;
  return (
    <div className="ml-4 flex flex-col gap-1 border-l-2 border-line pl-2">
      {runs.map((n) => (
        <NestedRun key={`${n.id}.${n.try}`} run={n} />
      ))}
    </div>
  );
}

function NestedRun({ run: n }: { run: NestedRunView }) {
  const { totals } = n.run;
  return (
    <details
      open
      data-testid="nested-run"
      data-child={n.id}
      data-try={n.try}
      data-outcome={n.end?.outcome ?? 'running'}
      className="rounded border border-line bg-panel px-2 py-1"
    >
      <summary className="flex cursor-pointer flex-wrap items-center gap-2 text-2xs">
        <span className="font-mono font-semibold">↳ sub-agent {n.id}</span>
        {n.try > 1 && <Pill>try {n.try}</Pill>}
        <span className="font-mono text-muted">{n.model}</span>
        {n.end ? (
          <Pill tone={OUTCOME_TONE[n.end.outcome] ?? 'neutral'} testId="nested-outcome" title={n.end.why}>
            {n.end.outcome.replace('_', ' ')} → {n.end.next.replace('_', ' ')}
          </Pill>
        ) : (
          <Pill tone="run">running</Pill>
        )}
        <span className="tabular ml-auto flex gap-3 font-mono text-muted">
          <span>
            {n.run.turns.length} {n.run.turns.length === 1 ? 'turn' : 'turns'}
          </span>
          <span title="its model requests (HTTP attempts)">{n.run.requests} req</span>
          <span title="input / output tokens">
            {formatTokens(totals.inputTokens)} / {formatTokens(totals.outputTokens)} tok
          </span>
          <span>{formatUsd(totals.usd)}</span>
        </span>
      </summary>
      <p className="mt-1 text-2xs text-muted">
        <span className="text-faint">task </span>
        {n.task}
      </p>
      <div className="mt-1 flex flex-col gap-1">
        {n.run.turns.map((t) => (
          <NestedTurn key={t.iteration} id={n.id} turn={t} />
        ))}
      </div>
      {n.end && (
        <p data-testid="nested-end" className="mt-1 text-2xs leading-4 text-fg/75">
          <span aria-hidden className="mr-1 text-faint">
            why
          </span>
          {n.end.why}
        </p>
      )}
    </details>
  );
}

/** One of a child's turns: what it said, the calls it made and what came back. */
function NestedTurn({ id, turn }: { id: string; turn: TurnView }) {
  const fg = turn.attempts.filter((a) => !a.background);
  const failed = fg.filter((a) => a.outcome === 'error').length;
  const text = (turn.result?.message?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : []));
  return (
    <div
      data-testid="nested-turn"
      data-child={id}
      data-iteration={turn.iteration}
      className="rounded border border-line/70 bg-sunken/40 px-2 py-1"
    >
      <div className="flex flex-wrap items-center gap-2 text-2xs">
        <span className="font-semibold">
          {id} · turn {turn.iteration}
        </span>
        {turn.result && <Pill>stop: {turn.result.stopReason}</Pill>}
        {failed > 0 && (
          <Pill tone="wait" title="attempts of this turn's model call that failed">
            {failed} failed {failed === 1 ? 'attempt' : 'attempts'}
          </Pill>
        )}
        <span className="tabular ml-auto font-mono text-muted">
          {fg.length} {fg.length === 1 ? 'attempt' : 'attempts'}
        </span>
      </div>
      {turn.guards.map((g, i) => (
        <p key={i} className="text-2xs text-wait">
          guard: {g.kind} {g.tool} — {g.reason}
        </p>
      ))}
      {text.map((t, i) => (
        <p key={i} className="text-xs leading-5 whitespace-pre-wrap">
          {t}
        </p>
      ))}
      {turn.toolCalls.map((c) => (
        <div key={c.key} data-testid="nested-tool-call" className="mt-0.5 font-mono text-2xs">
          <span className="font-semibold">⚙ {c.tool}</span>{' '}
          <span className="text-muted">{typeof c.args === 'string' ? c.args : JSON.stringify(c.args)}</span>
          {c.result !== undefined && (
            <div className={`mt-0.5 border-l-2 pl-2 ${c.isError ? 'border-fail' : 'border-ok'}`}>
              <LongText text={c.result} max={200} />
            </div>
          )}
        </div>
      ))}
    </div>
  );
}
