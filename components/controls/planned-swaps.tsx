'use client';

import type { PlaygroundForm } from '@/lib/client/forms/playground-form';

/**
 * The swaps the next run makes at their turns: planned in a config, or recorded from a run's
 * swaps made by hand (Open in playground brings them here). Each can be taken out.
 */
export function PlannedSwaps({
  form,
  onChange,
  disabled,
}: {
  form: PlaygroundForm;
  onChange: (patch: Partial<PlaygroundForm>) => void;
  disabled: boolean;
}) {
  if (form.swaps.length === 0) return null;
  return (
    <div className="flex flex-col gap-0.5 text-2xs" data-testid="planned-swaps">
      <span className="text-muted">planned swaps (the run makes each at the start of its turn)</span>
      <ul className="flex flex-col gap-0.5">
        {form.swaps.map((swap, i) => (
          <li key={`${swap.atTurn}-${i}`} className="flex items-center gap-2">
            <span className="font-mono">
              turn {swap.atTurn} → {swap.vendor}
              {swap.model ? `/${swap.model}` : ''}
            </span>
            {swap.takeover && (
              <span className="text-faint">
                {swap.takeover.naive
                  ? 'naive'
                  : `foreign thinking ${swap.takeover.foreignThinking === 'drop' ? 'dropped' : 'noted'}`}
              </span>
            )}
            <button
              type="button"
              className="text-takeover underline decoration-dotted"
              disabled={disabled}
              aria-label={`remove the swap at turn ${swap.atTurn} to ${swap.vendor}`}
              onClick={() => onChange({ swaps: form.swaps.filter((_, j) => j !== i) })}
            >
              remove
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
