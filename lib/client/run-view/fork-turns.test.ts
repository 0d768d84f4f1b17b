import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { readRecoveringRun } from '@/lib/testing/fixtures/recovering-run';
import { forkableTurns as fromLog } from '@/lib/trajectory';
import { forkableTurns } from './fork-turns';
import { foldRawEvents } from './fold-raw-events';
import { initialRunViewState } from '@/lib/run-view/run-view-state';

/** A run the real engine made (`npm run fixtures`). */
const events: RunEvent[] = readRecoveringRun();

describe('the turns the fork control offers', () => {
  it('are the turns the server can continue from (the same answer from the folded view as from the log)', () => {
    const view = foldRawEvents(initialRunViewState(), events);
    const offered = forkableTurns(view);
    expect(offered.length).toBeGreaterThan(0);
    expect(offered).toEqual(fromLog(events));
    // The final answer is never offered: there is nothing to continue from it.
    expect(offered).not.toContain(view.turns.at(-1)!.iteration);
  });

  it('a live run does not offer the turn still running', () => {
    const cut = events.findIndex((e) => e.event === 'iteration_start' && e.iteration === 3);
    const view = foldRawEvents(initialRunViewState(), events.slice(0, cut + 1));
    expect(forkableTurns(view)).toEqual([1, 2]);
    expect(fromLog(events.slice(0, cut))).toEqual([1, 2]);
    expect(forkableTurns(view)).not.toContain(3);
  });
});
