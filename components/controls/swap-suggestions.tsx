'use client';

import type { Vendor } from '@/lib/protocol';
import { useSwapTargets } from '@/lib/client/api/runs';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';

/**
 * Suggested demos: for the run's history now, the targets where a naive handover (history as it
 * was, credentials included) is refused, with the vendor's own words — rendered and validated by
 * the server as the takeover report does — and where it would pass. Picking one fills the form.
 */
export function SwapSuggestions({
  runId,
  onPick,
}: {
  runId?: string;
  onPick: (target: { vendor: Vendor; model: string; naive: boolean }) => void;
}) {
  const turn = useRunStore((s) => s.view.turns.at(-1)?.iteration ?? 0);
  const query = useSwapTargets(runId, turn);
  if (turn <= 1)
    return (
      <p className="text-2xs text-faint">
        Suggestions come once a turn has finished: the history is only the task so far.
      </p>
    );
  if (query.isError)
    return <p className="text-2xs text-fail">Suggestions could not be read: {String(query.error)}</p>;
  const data = query.data;
  if (!data) return <p className="text-2xs text-faint">Judging every target against the history…</p>;
  if (!data.ok) return <p className="text-2xs text-faint">No suggestions: {data.problem}</p>;
  const refused = data.targets.filter((t) => t.naive && !t.naive.accepted);
  const passes = data.targets.filter((t) => t.naive?.accepted);
  return (
    <div className="flex flex-col gap-1 text-2xs" data-testid="swap-suggestions">
      <span className="text-muted">
        Suggested demos, for the history as of turn {data.atTurn} (judged by each simulated vendor&apos;s own
        checks):
      </span>
      {refused.length === 0 && (
        <span className="text-muted">a naive handover passes everywhere from here: nothing to show yet</span>
      )}
      <ul className="flex flex-col gap-1">
        {refused.map((t) => (
          <li key={`${t.vendor}/${t.model}`} data-testid="swap-suggestion">
            <button
              type="button"
              className="text-left text-takeover underline decoration-dotted"
              onClick={() => onPick({ vendor: t.vendor, model: t.model, naive: true })}
              title="pick this target, naive: the run meets the vendor's refusal"
            >
              {t.vendor}/{t.model}
            </button>{' '}
            <span className="text-fail">
              naive: {t.naive?.status} {t.naive?.type}: {t.naive?.message}
            </span>
            {t.handled && (
              <span className="text-muted">
                {' '}
                · handled: {t.handled.accepted ? 'accepted' : `refused (${t.handled.status})`}
                {t.dropped.length > 0 ? `, dropping ${t.dropped.join(', ')}` : ''}
              </span>
            )}
          </li>
        ))}
      </ul>
      {passes.length > 0 && (
        <span className="text-faint">
          a naive handover would pass on {passes.map((t) => `${t.vendor}/${t.model}`).join(', ')}
        </span>
      )}
    </div>
  );
}
