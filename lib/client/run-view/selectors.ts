import type { RunStoreState } from './run-store';
import type { TurnView } from '@/lib/run-view/run-view-state';

/** Store selectors shared by the run view; each returns a stable reference when unchanged. */

export function findTurn(turns: readonly TurnView[], iteration: number): TurnView | undefined {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i]!.iteration === iteration) return turns[i];
  return undefined;
}

export const selectTurn = (iteration: number) => (s: RunStoreState) => findTurn(s.view.turns, iteration);

/** The iterations in order, as a string so the list re-renders only when one is added. */
export const selectIterationKey = (s: RunStoreState): string =>
  s.view.turns.map((t) => t.iteration).join(',');

export function parseIterationKey(key: string): number[] {
  return key === '' ? [] : key.split(',').map(Number);
}

/**
 * The waterfall's row structure, as a string: a turn's call row, its background row if
 * any, and one row per tool call. Changes only when a row appears.
 */
export const selectWaterfallShape = (s: RunStoreState): string =>
  s.view.turns
    .map((t) => `${t.iteration}:${t.attempts.some((a) => a.background) ? 1 : 0}:${t.toolCalls.length}`)
    .join('|');

export type WaterfallRowSpec =
  | { kind: 'call'; iteration: number }
  | { kind: 'background'; iteration: number }
  | { kind: 'tool'; iteration: number; index: number };

export function parseWaterfallShape(shape: string): WaterfallRowSpec[] {
  if (shape === '') return [];
  const rows: WaterfallRowSpec[] = [];
  for (const part of shape.split('|')) {
    const [it, bg, tools] = part.split(':').map(Number) as [number, number, number];
    rows.push({ kind: 'call', iteration: it });
    if (bg) rows.push({ kind: 'background', iteration: it });
    for (let i = 0; i < tools; i++) rows.push({ kind: 'tool', iteration: it, index: i });
  }
  return rows;
}

export const selectLastIteration = (s: RunStoreState): number | undefined =>
  s.view.turns[s.view.turns.length - 1]?.iteration;
