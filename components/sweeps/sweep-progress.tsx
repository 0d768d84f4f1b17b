import { formatMs, formatUsd } from '@/lib/run-view/format';
import type { SweepFrame } from '@/lib/client/api/sweeps';

/** A queued sweep's line: the sweep it waits for and its place, as the server sent them. */
export function queuedText({ queue }: Pick<SweepFrame, 'queue'>): string {
  if (!queue) return 'queued: waiting for the worker pool';
  const place = queue.position === 1 ? 'next in line' : `${ordinal(queue.position)} in line`;
  return `queued: waiting for sweep ${queue.waiting_for} to finish (${place}; one sweep runs at a time)`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13
      ? 'th'
      : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** Runs done of total, runs per second and time left, true as of the last frame. */
export function SweepProgressBar({ frame }: { frame: SweepFrame }) {
  const fraction = frame.total === 0 ? 1 : frame.done / frame.total;
  return (
    <div
      className="flex flex-col gap-1"
      data-testid="sweep-progress"
      data-status={frame.status}
      data-done={frame.done}
    >
      <div
        className="h-2 w-full overflow-hidden rounded bg-sunken"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={frame.total}
        aria-valuenow={frame.done}
        aria-label="runs done"
      >
        <div
          className={`h-full ${frame.status === 'running' ? 'bg-run' : frame.status === 'completed' ? 'bg-ok' : 'bg-faint'}`}
          style={{ width: `${fraction * 100}%` }}
        />
      </div>
      <div className="tabular flex flex-wrap gap-x-4 font-mono text-2xs text-muted">
        <span data-testid="sweep-done" className="whitespace-nowrap">
          {frame.done.toLocaleString('en')} / {frame.total.toLocaleString('en')} runs
        </span>
        {frame.status === 'queued' ? (
          <span data-testid="sweep-queued">{queuedText(frame)}</span>
        ) : frame.status === 'running' ? (
          <>
            <span>
              {frame.runs_per_sec > 0 ? `${frame.runs_per_sec.toFixed(1)} runs/s` : 'starting workers…'}
            </span>
            <span>{frame.eta_ms === null ? '' : `${formatMs(frame.eta_ms)} left`}</span>
          </>
        ) : (
          <span>
            {frame.status} after {formatMs(frame.elapsed_ms)}
            {frame.done > 0 && frame.elapsed_ms > 0
              ? ` · ${((frame.done * 1000) / frame.elapsed_ms).toFixed(1)} runs/s overall`
              : ''}
          </span>
        )}
      </div>
      {frame.cost_cap_usd !== undefined && (
        <div className="tabular font-mono text-2xs text-muted" data-testid="sweep-spent">
          {formatUsd(frame.spent_usd ?? 0)} spent of the {formatUsd(frame.cost_cap_usd)} cap
        </div>
      )}
      {frame.message && (
        <div
          className={`text-2xs ${frame.status === 'failed' ? 'text-fail' : 'text-wait'}`}
          data-testid="sweep-message"
        >
          {frame.message}
        </div>
      )}
      {frame.notes && frame.notes.length > 0 && (
        <ul className="list-disc pl-4 text-2xs text-muted" data-testid="sweep-notes">
          {frame.notes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
