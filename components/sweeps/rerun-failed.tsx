'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ApiError } from '@/lib/client/api/client';
import { sweepsApi, type SweepDetail } from '@/lib/client/api/sweeps';
import { Button } from '@/components/ui/button';

/** The reasons of a list of re-run jobs, counted: "2 × retries_exhausted, 1 × never ran". */
function tally(jobs: readonly { reason: string }[]): string {
  const counts = new Map<string, number>();
  for (const j of jobs) {
    const what = j.reason.split(':')[0]!;
    counts.set(what, (counts.get(what) ?? 0) + 1);
  }
  return [...counts].map(([what, n]) => `${n} × ${what}`).join(', ');
}

/** What a re-run re-ran (a link to the sweep it re-runs), and, once a sweep has ended, a button to re-run what failed in it. */
export function RerunFailed({
  sweepId,
  detail,
  open,
}: {
  sweepId: string;
  detail: SweepDetail;
  open: boolean;
}) {
  const router = useRouter();
  const [fromCassettes, setFromCassettes] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string[]>([]);
  const { rerun } = detail.grid;
  const failed = open ? [] : (detail.failed ?? []);
  const start = async () => {
    setPending(true);
    setError([]);
    try {
      const { id } = await sweepsApi.rerun(sweepId, { fromCassettes });
      router.push(`/sweeps/${encodeURIComponent(id)}`);
    } catch (e) {
      setError(e instanceof ApiError ? [e.message, ...e.details] : [String(e)]);
      setPending(false);
    }
  };
  if (!rerun && failed.length === 0) return null;
  return (
    <div className="flex flex-col gap-1 text-2xs">
      {rerun && (
        <p data-testid="sweep-rerun-of" className="text-muted">
          A re-run of what failed in{' '}
          <Link href={`/sweeps/${encodeURIComponent(rerun.of)}`} className="text-takeover underline">
            {rerun.of}
          </Link>
          : {rerun.jobs.length} {rerun.jobs.length === 1 ? 'job' : 'jobs'} ({tally(rerun.jobs)})
        </p>
      )}
      {failed.length > 0 && (
        <div className="flex flex-wrap items-center gap-2">
          <Button
            onClick={() => void start()}
            disabled={pending}
            data-testid="sweep-rerun"
            title={failed.map((f) => `job ${f.job}: ${f.reason}`).join('\n')}
          >
            {pending ? 'Starting…' : `Re-run ${failed.length} failed`}
          </Button>
          <span className="text-muted">
            {tally(failed)}: runs that ended on an error, an outage or a timeout, or never ran
          </span>
          {detail.grid.endpoints.length > 0 && (
            <label className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={fromCassettes}
                onChange={(e) => setFromCassettes(e.target.checked)}
              />
              from their recordings (no endpoint calls)
            </label>
          )}
        </div>
      )}
      {error.length > 0 && (
        <div role="alert" data-testid="sweep-rerun-error" className="text-fail">
          {error.map((line, i) => (
            <div key={i}>{line}</div>
          ))}
        </div>
      )}
    </div>
  );
}
