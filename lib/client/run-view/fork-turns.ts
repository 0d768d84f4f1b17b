import type { RunViewState } from '@/lib/run-view/run-view-state';

/**
 * The turns of a run the fork control offers: each ended with tool calls that all have their
 * results, or with an output step that asked the model to continue, so there is a user message
 * to continue from. The server decides for certain (from the log) and says why when not.
 */
export function forkableTurns(view: Pick<RunViewState, 'turns' | 'terminate'>): number[] {
  const live = view.terminate === undefined;
  const last = view.turns.at(-1)?.iteration;
  return view.turns
    .filter((t) => !(live && t.iteration === last))
    .filter((t) => {
      const continued = t.outputSteps.some((s) => s.action === 'continue' || s.action === 'continue_partial');
      const answered = t.toolCalls.length > 0 && t.toolCalls.every((c) => c.result !== undefined);
      return continued || answered;
    })
    .map((t) => t.iteration);
}
