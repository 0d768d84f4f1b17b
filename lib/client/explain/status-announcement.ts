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
