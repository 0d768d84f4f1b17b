import { statusWord, type RunStatus } from '@/lib/run-view/run-view-state';
import { explainTakeoverOutcome, type TakeoverOutcomeFacts } from '@/lib/run-view/explain/explain-swap-step';

/**
 * What a screen reader is told about a run: a sentence when its status changes (running →
 * waiting → completed), with the reason as it stood at that moment — never on a delta or a
 * tick of the countdown, which the visible status line shows. `undefined`: nothing new to say.
 */
export function statusAnnouncement(previous: RunStatus, next: RunStatus, reason: string): string | undefined {
  if (previous === next || next === 'idle') return undefined;
  return `Run ${statusWord(next)}: ${reason}`;
}

type AnnouncedSwap = {
  seq: number;
  fromVendor: string;
  fromModel: string;
  toVendor: string;
  toModel: string;
  iteration: number;
  outcome?: TakeoverOutcomeFacts & { seq: number };
};

/**
 * What a screen reader is told when a swap lands while the run is watched: where the run went,
 * from which turn, and where to look; then, when it comes, what the new vendor answered the
 * first request (the panel's own sentence). `undefined` when neither arrived.
 */
export function swapAnnouncement(
  previous: readonly AnnouncedSwap[],
  next: readonly AnnouncedSwap[],
): string | undefined {
  const swap = next.at(-1);
  if (!swap) return undefined;
  if (next.length > previous.length) {
    return `Swapped ${swap.fromVendor}/${swap.fromModel} → ${swap.toVendor}/${swap.toModel} from turn ${swap.iteration}: the takeover panel shows the request before and after.`;
  }
  const before = previous.at(-1);
  if (swap.outcome && before?.seq === swap.seq && before.outcome === undefined)
    return explainTakeoverOutcome(swap.outcome).why;
  return undefined;
}
