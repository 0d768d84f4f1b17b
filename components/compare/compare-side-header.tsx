import Link from 'next/link';
import type { CompareSide } from '@/lib/protocol/http/compare';
import { Pill } from '@/components/ui/pill';
import { VerdictPill } from '@/components/ui/verdict-pill';

/** Who one side is: title, run id (a link to its page), scenario, model, preset, seed, and how it stands. */
export function CompareSideHeader({
  side,
  letter,
  other,
}: {
  side: CompareSide;
  letter: 'A' | 'B';
  other: { id: string; letter: 'A' | 'B' };
}) {
  return (
    <div
      className="min-w-0 rounded border border-line bg-panel px-3 py-2"
      data-testid={`compare-side-${letter.toLowerCase()}`}
    >
      <div className="flex items-center gap-2">
        <span className="rounded bg-fg px-1.5 font-mono text-2xs text-bg">{letter}</span>
        <span className="min-w-0 break-words text-xs font-semibold">{side.title ?? side.scenario}</span>
      </div>
      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 font-mono text-2xs text-muted">
        <Link
          href={`/runs/${encodeURIComponent(side.id)}`}
          className="text-takeover underline [overflow-wrap:anywhere]"
        >
          {side.id}
        </Link>
        <span>{side.scenario}</span>
        <span>
          {side.vendor} {side.model}
        </span>
        <span>preset {side.preset}</span>
        <span>seed {side.seed}</span>
        {side.forkedFrom && (
          <span className="text-takeover" data-testid="compare-forked-from">
            fork of{' '}
            {side.forkedFrom.runId === other.id ? (
              `run ${other.letter}`
            ) : (
              <Link
                href={`/runs/${encodeURIComponent(side.forkedFrom.runId)}`}
                className="underline [overflow-wrap:anywhere]"
              >
                {side.forkedFrom.runId}
              </Link>
            )}{' '}
            after turn {side.forkedFrom.turn}
          </span>
        )}
      </div>
      <div className="mt-1 flex flex-wrap gap-1.5">
        {side.running ? (
          <Pill tone="run">running · {side.eventCount} events</Pill>
        ) : (
          <Pill tone="neutral">ended: {side.reason?.replace(/_/g, ' ')}</Pill>
        )}
        {side.verdict && <VerdictPill verdict={side.verdict} />}
      </div>
    </div>
  );
}
