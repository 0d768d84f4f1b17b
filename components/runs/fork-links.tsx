'use client';

import Link from 'next/link';
import { formatUsd } from '@/lib/run-view/format';
import { useForks } from '@/lib/client/api/runs';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';

/**
 * The fork links of a run page, both ways: the parent this run was forked from (and at which
 * turn), and the runs forked from this one.
 */
export function ForkLinks({ runId }: { runId: string }) {
  const from = useRunStore((s) => s.view.forkedFrom);
  const ended = useRunStore((s) => s.view.terminate !== undefined);
  const forks = useForks(runId, ended);
  const children = forks.data ?? [];
  if (!from && children.length === 0) return null;
  return (
    <div
      className="flex flex-wrap items-center gap-x-3 gap-y-0.5 border-b border-line bg-takeover-soft/30 px-4 py-1 text-2xs"
      data-testid="fork-links"
    >
      {from && (
        <span data-testid="forked-from">
          forked from{' '}
          <Link
            className="font-mono text-takeover underline"
            href={`/runs/${encodeURIComponent(from.parentRunId)}`}
          >
            {from.parentRunId.slice(0, 8)}
          </Link>{' '}
          at turn {from.turn} ({from.fromVendor}/{from.fromModel}): turns 1–{from.turn} are copied from it,
          and their {formatUsd(from.inherited.usd)} count in this run&apos;s totals
          {from.workspace.diverged.length > 0 && (
            <span className="text-wait">
              {' '}
              · {from.workspace.diverged.length} replayed edit(s) differed:{' '}
              {from.workspace.diverged.join(', ')}
            </span>
          )}
          {from.faults && <span data-testid="fork-faults"> · {from.faults}</span>}
        </span>
      )}
      {children.length > 0 && (
        <span data-testid="fork-children">
          forks:{' '}
          {children.map((c, i) => (
            <span key={c.id}>
              {i > 0 && ', '}
              <Link className="font-mono text-takeover underline" href={`/runs/${encodeURIComponent(c.id)}`}>
                {c.id.slice(0, 8)}
              </Link>{' '}
              at turn {c.forked_at_turn} on {c.vendor}/{c.model} ({c.status})
            </span>
          ))}
        </span>
      )}
    </div>
  );
}
