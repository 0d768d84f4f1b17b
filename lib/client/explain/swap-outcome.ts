import type { RunViewState } from '../run-view/run-view-state';

/** A swap asked for from the page: what it asked, the last event seen when it asked, and the server's answer. */
export interface SwapAsk {
  /** "sim-deepseek/deepseek-sim-reasoner" */
  target: string;
  afterSeq: number;
  /** The control route accepted it (202). */
  accepted: boolean;
  /** The control route refused it (400, 409, the network), in its words. */
  error?: string;
}

export interface SwapOutcome {
  tone: 'wait' | 'ok' | 'fail';
  text: string;
}

/**
 * What became of a swap asked for from the page, from the answer and the events after it: made
 * (the run's swap event), not made (the route's refusal, or the run's own note saying why), or
 * still waiting for the next request boundary. Never silent: every ask has a sentence.
 */
export function swapOutcome(ask: SwapAsk, view: Pick<RunViewState, 'swaps' | 'swapNotes' | 'terminate'>): SwapOutcome {
  if (ask.error) return { tone: 'fail', text: `Swap to ${ask.target} not made: ${ask.error}` };
  const made = view.swaps.find((s) => s.cause === 'control' && s.seq > ask.afterSeq);
  if (made) {
    return {
      tone: 'ok',
      text: `Swapped to ${made.toVendor}/${made.toModel} from turn ${made.iteration}: the takeover panel shows the request before and after.`,
    };
  }
  const note = view.swapNotes.find((n) => n.seq > ask.afterSeq);
  if (note) return { tone: 'fail', text: `Not swapped: ${note.message}.` };
  if (!ask.accepted) return { tone: 'wait', text: `Asking the server to swap to ${ask.target}…` };
  if (view.terminate) return { tone: 'fail', text: `Not swapped: the run ended (${view.terminate.reason}) with no swap to ${ask.target} in its log.` };
  return { tone: 'wait', text: `Asked: the run moves to ${ask.target} at its next request.` };
}
