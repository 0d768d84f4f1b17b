import { checkNever } from '@/lib/protocol/check-never';
import type { SwapView } from '@/lib/run-view/fold-takeover';
import type { RunViewState } from '@/lib/run-view/run-view-state';

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
 * (the run's swap event) and what the new vendor answered its first request (the swap
 * controller's `takeover_outcome`), not made (the route's refusal, or the run's own note saying
 * why), or still waiting for the next request boundary. Never silent: every ask has a sentence.
 */
export function swapOutcome(
  ask: SwapAsk,
  view: Pick<RunViewState, 'swaps' | 'swapNotes' | 'terminate'>,
): SwapOutcome {
  if (ask.error) return { tone: 'fail', text: `Swap to ${ask.target} not made: ${ask.error}` };
  const made = view.swaps.find((s) => s.cause === 'control' && s.seq > ask.afterSeq);
  if (made) return madeOutcome(made, view.terminate);
  const note = view.swapNotes.find((n) => n.seq > ask.afterSeq);
  if (note) return { tone: 'fail', text: `Not swapped: ${note.message}.` };
  if (!ask.accepted) return { tone: 'wait', text: `Asking the server to swap to ${ask.target}…` };
  if (view.terminate)
    return {
      tone: 'fail',
      text: `Not swapped: the run ended (${view.terminate.reason}) with no swap to ${ask.target} in its log.`,
    };
  return { tone: 'wait', text: `Asked: the run moves to ${ask.target} at its next request.` };
}

/** A swap made: what the new vendor answered its first request, or that the answer is awaited. */
export function madeOutcome(made: SwapView, terminate: RunViewState['terminate']): SwapOutcome {
  const swapped = `Swapped to ${made.toVendor}/${made.toModel} from turn ${made.iteration}${made.handling.naive ? ', the history sent as it was (naive takeover)' : ''}`;
  const answer = made.outcome;
  if (!answer) {
    if (terminate)
      return {
        tone: 'fail',
        text: `${swapped}; the run ended (${terminate.reason}) before its first request there was answered.`,
      };
    return { tone: 'wait', text: `${swapped}: waiting for ${made.toVendor}'s answer to its first request.` };
  }
  const error = [answer.status, answer.vendor_type].filter((x) => x !== undefined).join(' ');
  switch (answer.outcome) {
    case 'accepted':
      return {
        tone: 'ok',
        text: `${swapped}: ${made.toVendor} accepted its first request. The takeover panel shows the request before and after.`,
      };
    case 'refused':
      return {
        tone: 'fail',
        text: `${swapped}: ${made.toVendor} refused its first request with ${error}: ${answer.message ?? 'no message'}`,
      };
    case 'failed':
      return {
        tone: 'fail',
        text: `${swapped}: its first request got no full answer: ${answer.message ?? 'no message'}${error ? ` (${error})` : ''}`,
      };
    default:
      return checkNever(answer.outcome);
  }
}
