import type { AlignedTurn, Comparison } from '@/lib/protocol/http/compare';

/** Where one side has got: the turns it has done and the one under way, read off its condensed turns. */
interface Progress {
  letter: 'A' | 'B';
  ended: boolean;
  done: number;
  /** The turn under way (started, not finished); null: none. */
  current: number | null;
}

function progress(turns: readonly AlignedTurn[], side: 'a' | 'b', running: boolean): Progress {
  let done = 0;
  let current: number | null = null;
  for (const row of turns) {
    const t = row[side];
    if (!t) continue;
    if (t.finished) done += 1;
    else current = row.turn;
  }
  return { letter: side === 'a' ? 'A' : 'B', ended: !running, done, current };
}

const turnsWord = (n: number): string => `${n} turn${n === 1 ? '' : 's'}`;

function where(p: Progress): string {
  if (p.ended) return `${p.letter} ended after ${turnsWord(p.done)}`;
  if (p.current !== null) return `${p.letter} is still running (turn ${p.current} in progress)`;
  return p.done === 0
    ? `${p.letter} has not started a turn yet`
    : `${p.letter} is still running (${turnsWord(p.done)} done)`;
}

/**
 * What "no divergence" covers at this moment, in numbers: the turns both runs have done, and
 * where each side stands (ended after n turns, or on turn k). A live side may yet diverge, so
 * the sentence says how far the match has been checked rather than that the runs are alike.
 */
export function noDivergenceNote(c: Pick<Comparison, 'a' | 'b' | 'turns'>): string {
  const a = progress(c.turns, 'a', c.a.running);
  const b = progress(c.turns, 'b', c.b.running);
  if (a.ended && b.ended)
    return `No divergence: both runs did the same things in their ${turnsWord(Math.max(a.done, b.done))}, step for step (times aside).`;
  const both = Math.min(a.done, b.done);
  const head =
    both === 0
      ? 'No divergence so far (no turn done by both yet)'
      : `No divergence in the ${turnsWord(both)} both have done`;
  const sameTurn = !a.ended && !b.ended && a.current !== null && a.current === b.current;
  const tail = sameTurn
    ? `both are still running (turn ${a.current} in progress)`
    : `${where(a)}; ${where(b)}`;
  return `${head}; ${tail}.`;
}
