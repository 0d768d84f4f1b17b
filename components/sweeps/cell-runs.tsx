'use client';

import Link from 'next/link';
import { compareUrl } from '@/lib/client/api/compare';
import { formatMs, formatTokens, formatUsd } from '@/lib/run-view/format';
import { sweepCounterparts } from '@/lib/client/tables/sweep-counterparts';
import type { SweepRow, SweepRunMetrics } from '@/lib/protocol';
import { Pill } from '@/components/ui/pill';

/** A table cell's runs, one line a seed; each opens on its run page, or beside the same seed in another configuration. */
export function CellRuns({
  row,
  rows = [],
  runs,
  sweepId,
  onClose,
}: {
  row: SweepRow;
  /** The sweep the runs are of: a compare link carries it, for the rows' paired result. */
  sweepId: string;
  rows?: SweepRow[];
  runs: SweepRunMetrics[];
  onClose: () => void;
}) {
  const mine = runs.filter((r) => r.key === row.key);
  return (
    <div className="rounded border border-line bg-panel" data-testid="cell-runs">
      <div className="flex items-center justify-between border-b border-line px-3 py-1.5">
        <h3 className="text-xs font-medium">
          {row.config_label} · {row.scenario} · {row.fault_plan} · {row.vendor}: {mine.length} runs
        </h3>
        <button type="button" className="text-2xs text-muted hover:text-fg" onClick={onClose}>
          close
        </button>
      </div>
      <div className="max-h-72 overflow-y-auto">
        {mine.map((m) => (
          <div key={m.run_id} className="flex items-center border-b border-line hover:bg-sunken">
            <Link
              href={`/runs/${m.run_id}`}
              className="flex min-w-0 flex-1 items-center gap-3 px-3 py-1 text-xs"
              data-testid="cell-run"
            >
              <span className="w-16 font-mono text-2xs text-muted">seed {m.seed}</span>
              <Pill tone={m.complete ? 'ok' : 'fail'}>{m.complete ? 'complete' : 'incomplete'}</Pill>
              <Pill
                tone={m.verdict === 'done' ? 'ok' : m.verdict === 'not_done' ? 'fail' : 'neutral'}
                title="task verdict: the scenario's own check on the final workspace"
              >
                {m.verdict ? `task ${m.verdict.replace('_', ' ')}` : 'task unchecked'}
              </Pill>
              <span className="w-32 truncate text-2xs text-muted">{m.reason}</span>
              <span className="tabular w-16 text-right font-mono text-2xs">{formatMs(m.duration_ms)}</span>
              <span className="tabular w-16 text-right font-mono text-2xs">{formatUsd(m.usd)}</span>
              <span className="tabular w-28 text-right font-mono text-2xs" title="attempts (failed)">
                {m.attempts} attempts ({m.failed_attempts} failed)
              </span>
              <span
                className="tabular w-24 text-right font-mono text-2xs"
                title="tokens billed for failed attempts"
              >
                {formatTokens(m.wasted_tokens)} wasted
              </span>
              <span className="tabular w-20 text-right font-mono text-2xs">{m.errors_seen} seen</span>
            </Link>
            {sweepCounterparts({ row, rows, runs, seed: m.seed }).map((c) => (
              <Link
                key={c.runId}
                href={compareUrl(m.run_id, c.runId, sweepId)}
                className="shrink-0 px-2 text-2xs text-takeover underline"
                data-testid="cell-run-compare"
                title={`compare with seed ${m.seed} in ${c.configLabel}`}
              >
                compare vs {c.configLabel}
              </Link>
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
