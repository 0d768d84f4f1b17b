import { formatMs, formatTokens, formatUsd } from '@/lib/run-view/format';
import type { CopiedPart, TotalsDiffRow } from '@/lib/protocol/http/compare';

/**
 * What part of a fork's total it copied from its parent, under the total: a fork's run time,
 * tokens and cost count its copied turns, so a "▲" on them may be the parent's doing. Run time
 * also gives the time after the fork, the fork's own, from the total as shown (so still true
 * while it runs), on a line of its own. null: the line has no copied part (counts of the fork's own attempts, text).
 */
export function copiedNote(
  row: Pick<TotalsDiffRow, 'id'>,
  value: TotalsDiffRow['a'],
  part: CopiedPart | null,
): string[] | null {
  if (!part) return null;
  switch (row.id) {
    case 'durationMs': {
      const turns = `${part.turns} copied turn${part.turns === 1 ? '' : 's'}`;
      const copied = `incl. ${turns}: ${formatMs(part.durationMs)}`;
      return typeof value === 'number'
        ? [copied, `after the fork: ${formatMs(Math.max(0, value - part.durationMs))}`]
        : [copied];
    }
    case 'inputTokens':
      return [`incl. ${formatTokens(part.inputTokens)} copied`];
    case 'outputTokens':
      return [`incl. ${formatTokens(part.outputTokens)} copied`];
    case 'usd':
      return [`incl. ${formatUsd(part.usd)} copied`];
    default:
      return null;
  }
}
