'use client';

import Link from 'next/link';
import { formatMs } from '@/lib/run-view/format';
import { useSweeps } from '@/lib/client/api/sweep-queries';
import { Pill } from '@/components/ui/pill';
import { SWEEP_TONE } from './sweep-tone';

/** Every sweep, newest first, with where it stands. */
export function SweepList() {
  const { data, error, isLoading } = useSweeps();
  return (
    <div className="flex min-h-0 flex-col rounded border border-line bg-panel">
      <h2 className="border-b border-line px-3 py-2 text-2xs font-semibold tracking-wide text-faint uppercase">
        Sweeps
      </h2>
      {error && <div className="p-3 text-xs text-fail">Could not load sweeps: {error.message}</div>}
      {isLoading && <div className="p-3 text-xs text-faint">Loading…</div>}
      {data?.length === 0 && <div className="p-3 text-xs text-faint">No sweeps yet.</div>}
      <div className="min-h-0 overflow-y-auto">
        {data?.map((s) => (
          <Link
            key={s.id}
            href={`/sweeps/${s.id}`}
            className="flex items-center gap-2 border-b border-line px-3 py-1.5 text-xs hover:bg-sunken"
            data-testid="sweep-list-row"
          >
            <Pill tone={SWEEP_TONE[s.status]}>{s.status}</Pill>
            <span className="min-w-0 flex-1 truncate">{s.name}</span>
            <span className="tabular font-mono text-2xs text-muted">
              {s.done}/{s.total} · {formatMs(s.elapsed_ms)}
            </span>
          </Link>
        ))}
      </div>
    </div>
  );
}
