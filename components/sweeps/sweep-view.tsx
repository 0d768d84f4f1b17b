'use client';

import dynamic from 'next/dynamic';
import { useState } from 'react';
import { useCancelSweep, useSweep, useSweepProgress, useSweepRuns } from '@/lib/client/api/sweep-queries';
import { sweepExportUrl } from '@/lib/client/api/sweeps';
import { Button } from '@/components/ui/button';
import { Pill } from '@/components/ui/pill';
import { CellRuns } from './cell-runs';
import { PairedComparisons } from './paired-comparisons';
import { ResultsTable } from './results-table';
import { RerunFailed } from './rerun-failed';
import { SweepProgressBar } from './sweep-progress';
import { isSweepOpen, SWEEP_TONE } from './sweep-tone';

// The chart library loads only on this page, after the table.
const SweepCharts = dynamic(() => import('./sweep-charts').then((m) => m.SweepCharts), {
  ssr: false,
  loading: () => <div className="text-2xs text-faint">Loading charts…</div>,
});

/** One sweep: live progress, cancel, the results table, charts, a cell's runs, exports. */
export function SweepView({ sweepId }: { sweepId: string }) {
  const frame = useSweepProgress(sweepId);
  // Queued counts as running here: it can be cancelled, and its table fills in once it starts.
  const running = frame !== undefined && isSweepOpen(frame.status);
  const detail = useSweep(sweepId, running);
  const runs = useSweepRuns(sweepId, running);
  const cancel = useCancelSweep();
  const [selected, setSelected] = useState<string>();
  const sweep = frame ?? (detail.data ? { ...detail.data.sweep, runs_per_sec: 0, eta_ms: null } : undefined);
  const rows = detail.data?.rows ?? [];
  const row = rows.find((r) => r.key === selected);

  if (detail.error)
    return (
      <div className="p-4 text-xs text-fail">
        Could not load sweep {sweepId}: {detail.error.message}
      </div>
    );
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-3 p-4">
      {/* Wraps on a narrow screen so the name is not clipped to a couple of letters by the export buttons. */}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-[min(100%,16rem)] flex-1">
          <h1 className="flex items-center gap-2 text-sm font-semibold">
            {sweep && <Pill tone={SWEEP_TONE[sweep.status]}>{sweep.status}</Pill>}
            <span className="truncate" data-testid="sweep-name">
              {sweep?.name ?? sweepId}
            </span>
          </h1>
          <p className="text-2xs text-muted">
            {sweepId} · {sweep?.runner === 'bullmq' ? 'BullMQ workers' : 'local worker pool'} · click a row
            for its runs
          </p>
        </div>
        <div className="flex shrink-0 gap-2">
          {running && (
            <Button
              variant="danger"
              onClick={() => cancel.mutate(sweepId)}
              disabled={cancel.isPending}
              data-testid="sweep-cancel"
            >
              Cancel
            </Button>
          )}
          <a
            className="rounded border border-line px-2.5 py-1 text-xs hover:bg-sunken"
            href={sweepExportUrl(sweepId, 'csv', 'table')}
            download
          >
            Table CSV
          </a>
          <a
            className="rounded border border-line px-2.5 py-1 text-xs hover:bg-sunken"
            href={sweepExportUrl(sweepId, 'csv', 'runs')}
            download
          >
            Runs CSV
          </a>
          <a
            className="rounded border border-line px-2.5 py-1 text-xs hover:bg-sunken"
            href={sweepExportUrl(sweepId, 'json')}
            download
          >
            JSON
          </a>
        </div>
      </div>
      {sweep && <SweepProgressBar frame={sweep} />}
      {detail.data && (
        <RerunFailed
          sweepId={sweepId}
          detail={detail.data}
          open={running || isSweepOpen(detail.data.sweep.status)}
        />
      )}
      {rows.length > 0 && (
        <ResultsTable
          rows={rows}
          selected={selected}
          onSelect={(key) => setSelected((k) => (k === key ? undefined : key))}
        />
      )}
      {rows.length > 1 && detail.data && (
        <PairedComparisons comparisons={detail.data.comparisons} sweepId={sweepId} runs={runs.data ?? []} />
      )}
      {row && (
        <CellRuns
          row={row}
          rows={rows}
          runs={runs.data ?? []}
          sweepId={sweepId}
          onClose={() => setSelected(undefined)}
        />
      )}
      {rows.length > 0 && (runs.data?.length ?? 0) > 0 && <SweepCharts rows={rows} runs={runs.data ?? []} />}
    </div>
  );
}
