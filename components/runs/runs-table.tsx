'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import Link from 'next/link';
import { useRef } from 'react';
import type { RunSummary } from '@/lib/client/api-client';
import { parseVerdict } from '@/lib/client/describe-verdict';
import { formatMs, formatTokens, formatUsd } from '@/lib/client/format';
import { useRuns } from '@/lib/client/queries';
import { Pill } from '@/components/ui/pill';
import { VerdictPill } from '@/components/ui/verdict-pill';
import type { Tone } from '@/components/ui/tone';

const ROW = 30;
const COLS = 'grid grid-cols-[9rem_13rem_minmax(8rem,1fr)_minmax(8rem,1fr)_6rem_5rem_5rem_5rem] items-center gap-3 px-3';
const STATUS_TONE: Record<string, Tone> = { running: 'run', completed: 'ok', failed: 'fail', aborted: 'neutral' };

function when(created: RunSummary['created_at']): string {
  if (created === undefined) return '–';
  const d = new Date(created);
  return Number.isNaN(d.getTime()) ? String(created) : d.toLocaleString();
}

function RunRow({ run }: { run: RunSummary }) {
  const status = run.status ?? 'unknown';
  const verdict = parseVerdict(run.verdict);
  return (
    <Link href={`/runs/${run.id}`} data-testid="runs-row" data-status={status} className={`${COLS} h-full border-b border-line text-xs hover:bg-sunken`}>
      <span className="tabular truncate font-mono text-2xs text-muted">{when(run.created_at)}</span>
      <span className="flex items-center gap-1">
        <Pill tone={STATUS_TONE[status] ?? 'neutral'} title={run.reason ?? undefined}>
          {status}
        </Pill>
        {verdict && <VerdictPill verdict={verdict} />}
        {run.imported && <Pill>imported</Pill>}
      </span>
      <span className="truncate font-mono text-2xs">
        {run.vendor ?? '–'} / {run.model ?? '–'}
      </span>
      <span className="truncate">{run.scenario ?? '–'}{run.reason ? <span className="text-faint"> · {run.reason}</span> : null}</span>
      <span className="tabular text-right font-mono text-2xs">
        {formatTokens(run.input_tokens)} / {formatTokens(run.output_tokens)}
      </span>
      <span className="tabular text-right font-mono text-2xs">{formatUsd(run.usd)}</span>
      <span className="tabular text-right font-mono text-2xs">{formatMs(run.duration_ms)}</span>
      <span className="tabular text-right font-mono text-2xs text-muted">{run.iterations ?? '–'} it.</span>
    </Link>
  );
}

/** Every run, newest first, virtualized. */
export function RunsTable() {
  const { data, error, isLoading } = useRuns();
  const scrollRef = useRef<HTMLDivElement>(null);
  const runs = data ?? [];
  const virtualizer = useVirtualizer({ count: runs.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 20 });

  return (
    <div className="flex min-h-0 flex-1 flex-col rounded border border-line bg-panel">
      <div className={`${COLS} h-7 border-b border-line text-2xs tracking-wide text-faint uppercase`}>
        <span>started</span>
        <span>status · verdict</span>
        <span>vendor / model</span>
        <span>scenario</span>
        <span className="text-right">tokens</span>
        <span className="text-right">cost</span>
        <span className="text-right">duration</span>
        <span className="text-right">turns</span>
      </div>
      {error && <div className="p-3 text-xs text-fail">Could not load runs: {error.message}</div>}
      {isLoading && <div className="p-3 text-xs text-faint">Loading…</div>}
      {!isLoading && !error && runs.length === 0 && <div className="p-3 text-xs text-faint">No runs yet. Start one in the playground or import a trace.</div>}
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto">
        <div className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => (
            <div key={item.key} className="absolute inset-x-0" style={{ top: item.start, height: ROW }}>
              <RunRow run={runs[item.index]!} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
