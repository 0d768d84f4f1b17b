import type { RunStatus, TurnView } from './run-view-state';

const FINISHED: ReadonlySet<RunStatus> = new Set<RunStatus>(['done', 'failed', 'aborted']);

/**
 * The run header's label for the vendor and model it shows (the ones asked last). Once the
 * run has ended it says "last answered by" only if that vendor and model did answer — the
 * newest turn with a kept response came from them; a run whose every attempt failed, or whose
 * takeover target never answered, says "last asked", which is all that is true of it.
 */
export function vendorStatLabel(options: { status: RunStatus; vendor?: string; model?: string; turns: readonly Pick<TurnView, 'result'>[] }): string {
  if (!FINISHED.has(options.status)) return 'answering now';
  for (let i = options.turns.length - 1; i >= 0; i--) {
    const result = options.turns[i]!.result;
    if (!result) continue;
    if (result.vendor === undefined) return 'last answered by'; // an imported trace that does not say
    return result.vendor === options.vendor && result.model === options.model ? 'last answered by' : 'last asked';
  }
  return 'last asked';
}
