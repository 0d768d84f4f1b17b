import type { AttemptView, BlockView, MarkerView, RunViewState, TurnView } from './run-view-state';

/**
 * Path-copying helpers for the reducer: each returns new objects only along the path it
 * changes, so one delta costs a copy of one attempt, one turn and the turns array (not a
 * deep copy of the run).
 */

/** Content deltas closer than this (run ms) shade as one span on the waterfall. */
export const SPAN_MERGE_MS = 400;

export function emptyTurn(iteration: number, ts: number): TurnView {
  return {
    iteration,
    startTs: ts,
    lastTs: ts,
    attempts: [],
    toolCalls: [],
    guards: [],
    fallbacks: [],
    outputSteps: [],
  };
}

function findTurnIndex(turns: readonly TurnView[], iteration: number): number {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i]!.iteration === iteration) return i;
  return -1;
}

/** Replaces (or creates) the turn for `iteration` with `fn(turn)`. */
export function updateTurn(
  state: RunViewState,
  iteration: number,
  ts: number,
  fn: (turn: TurnView) => TurnView,
): readonly TurnView[] {
  const index = findTurnIndex(state.turns, iteration);
  if (index === -1) {
    const created = fn(emptyTurn(iteration, ts));
    const turns = [...state.turns, { ...created, lastTs: Math.max(created.lastTs, ts) }];
    return turns.sort((a, b) => a.iteration - b.iteration);
  }
  const turns = state.turns.slice();
  const next = fn(turns[index]!);
  turns[index] = { ...next, lastTs: Math.max(next.lastTs, ts) };
  return turns;
}

/** Index of the latest attempt with this number (background calls restart their count). */
export function findAttemptIndex(turn: TurnView, attempt: number | undefined): number {
  for (let i = turn.attempts.length - 1; i >= 0; i--) {
    if (attempt === undefined || turn.attempts[i]!.attempt === attempt) return i;
  }
  return -1;
}

/** Replaces the attempt with `fn(attempt)`; a no-op when the attempt was never requested. */
export function updateAttempt(
  turn: TurnView,
  attempt: number | undefined,
  fn: (a: AttemptView) => AttemptView,
): TurnView {
  const index = findAttemptIndex(turn, attempt);
  if (index === -1) return turn;
  const attempts = turn.attempts.slice();
  attempts[index] = fn(attempts[index]!);
  return { ...turn, attempts };
}

/** Appends delta text to its block and extends the content spans. */
export function appendDelta(
  a: AttemptView,
  delta: { ts: number; index: number; kind: BlockView['kind']; text: string; callId?: string; tool?: string },
): AttemptView {
  const blocks = a.blocks.slice();
  let bi = -1;
  for (let i = blocks.length - 1; i >= 0; i--) {
    if (blocks[i]!.index === delta.index && blocks[i]!.kind === delta.kind) {
      bi = i;
      break;
    }
  }
  if (bi === -1) {
    const block: BlockView = { index: delta.index, kind: delta.kind, text: delta.text };
    if (delta.callId !== undefined) block.callId = delta.callId;
    if (delta.tool !== undefined) block.tool = delta.tool;
    blocks.push(block);
    blocks.sort((x, y) => x.index - y.index);
  } else {
    const old = blocks[bi]!;
    blocks[bi] = {
      ...old,
      text: old.text + delta.text,
      callId: old.callId ?? delta.callId,
      tool: old.tool ?? delta.tool,
    };
  }
  const spans = a.contentSpans;
  const last = spans[spans.length - 1];
  let contentSpans: AttemptView['contentSpans'];
  if (last && delta.ts - last[1] <= SPAN_MERGE_MS) {
    contentSpans = [...spans.slice(0, -1), [last[0], Math.max(last[1], delta.ts)] as const];
  } else {
    contentSpans = [...spans, [delta.ts, delta.ts] as const];
  }
  const watchdog = a.watchdog && !a.watchdog.fired ? { ...a.watchdog, lastResetTs: delta.ts } : a.watchdog;
  return { ...a, blocks, contentSpans, watchdog, outcome: 'streaming' };
}

/** The latest attempt of the whole run (for status reasons). */
export function latestAttempt(state: RunViewState): { turn: TurnView; attempt: AttemptView } | undefined {
  for (let t = state.turns.length - 1; t >= 0; t--) {
    const turn = state.turns[t]!;
    const attempt = turn.attempts[turn.attempts.length - 1];
    if (attempt) return { turn, attempt };
  }
  return undefined;
}

export function turnLabel(iteration: number): string {
  return `turn ${iteration}`;
}

export function addMarker(s: RunViewState, marker: MarkerView): readonly MarkerView[] {
  return [...s.markers, marker];
}
