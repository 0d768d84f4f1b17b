import type { RunEvent } from '@/lib/protocol';
import type { AlignedTurn, Divergence, TurnSide } from '@/lib/protocol/http/compare';
import { runSteps, type RunStep } from './run-steps';

/** A run's turns condensed, by turn number. */
export function turnSides(events: readonly RunEvent[], steps: readonly RunStep[] = runSteps(events)): Map<number, TurnSide> {
  const sides = new Map<number, TurnSide>();
  const starts: { turn: number; ts: number }[] = [];
  let streaming = '';
  let end: number | null = null;
  for (const e of events) {
    if (e.event === 'terminate') end = e.ts;
    if (!('iteration' in e) || typeof e.iteration !== 'number') continue;
    let side = sides.get(e.iteration);
    if (!side) {
      side = { firstSeq: e.seq, startMs: e.ts, durationMs: 0, attempts: 0, text: '', stopReason: null, toolCalls: [], recovery: [], finished: false };
      sides.set(e.iteration, side);
      starts.push({ turn: e.iteration, ts: e.ts });
    }
    side.durationMs = Math.max(side.durationMs, e.ts - side.startMs);
    if (e.event === 'model_request' && !e.background) {
      side.attempts += 1;
      streaming = '';
    } else if (e.event === 'content_delta' && e.kind === 'text') {
      streaming += e.text;
      if (side.stopReason === null) side.text = streaming;
    } else if (e.event === 'llm_call' && !e.background) {
      const said = (e.message?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
      side.text = side.stopReason === null ? said : `${side.text}${said}`;
      side.stopReason = e.stop_reason;
    }
  }
  // A turn ends where the next one (or the run) starts.
  starts.forEach((start, i) => {
    const side = sides.get(start.turn)!;
    const next = starts[i + 1]?.ts ?? end;
    if (next !== null && next !== undefined) {
      side.durationMs = next - start.ts;
      side.finished = true;
    }
  });
  for (const step of steps) {
    if (step.turn === null) continue;
    const side = sides.get(step.turn);
    if (!side) continue;
    if (step.kind === 'tool') side.toolCalls.push(step.label);
    else if (step.kind !== 'request' && step.kind !== 'response') side.recovery.push(step.label);
    else if (step.kind === 'response' && step.background) side.recovery.push(step.label);
  }
  return sides;
}

/** Both runs' turns side by side, turn n beside turn n, with the divergence's turn marked. */
export function alignTurns(options: {
  a: readonly RunEvent[];
  b: readonly RunEvent[];
  divergence: Divergence | null;
  stepsA?: readonly RunStep[];
  stepsB?: readonly RunStep[];
}): AlignedTurn[] {
  const a = turnSides(options.a, options.stepsA);
  const b = turnSides(options.b, options.stepsB);
  const turns = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x - y);
  return turns.map((turn) => ({ turn, a: a.get(turn) ?? null, b: b.get(turn) ?? null, diverged: options.divergence?.turn === turn }));
}
