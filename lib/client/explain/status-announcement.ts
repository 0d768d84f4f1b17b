import { statusWord, type RunStatus } from '../run-view/run-view-state';

/**
 * What a screen reader is told about a run: a sentence when its status changes (running →
 * waiting → completed), with the reason as it stood at that moment — never on a delta or a
 * tick of the countdown, which the visible status line shows. `undefined`: nothing new to say.
 */
export function statusAnnouncement(previous: RunStatus, next: RunStatus, reason: string): string | undefined {
  if (previous === next || next === 'idle') return undefined;
  return `Run ${statusWord(next)}: ${reason}`;
}

/**
 * What a screen reader is told when a swap lands while the run is watched: where the run went,
 * from which turn, and where to look. `undefined` when no new swap arrived.
 */
export function swapAnnouncement(
  previous: readonly { seq: number }[],
  next: readonly { seq: number; fromVendor: string; fromModel: string; toVendor: string; toModel: string; iteration: number }[],
): string | undefined {
  const swap = next.at(-1);
  if (!swap || next.length <= previous.length) return undefined;
  return `Swapped ${swap.fromVendor}/${swap.fromModel} → ${swap.toVendor}/${swap.toModel} from turn ${swap.iteration}: the takeover panel shows the request before and after.`;
}
