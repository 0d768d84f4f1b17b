import type { RunEvent } from '@/lib/protocol';
import type { AlignedTurn, Divergence, TurnSide } from '@/lib/protocol/http/compare';
import { createStepReader, type RunStep } from './run-steps';

/**
 * A run's turns condensed, built one event at a time (with the step that event is, if any).
 * A turn ends where the next one (or the run) starts: from then on its duration is fixed;
 * until then it is the time to its latest event so far.
 */
export class TurnFold {
  readonly sides = new Map<number, TurnSide>();
  private current: TurnSide | undefined;
  private streaming = '';

  /** `copied`: the event is one a fork copied from its parent's log. */
  add(e: RunEvent, step: RunStep | null, copied = false): void {
    if ('iteration' in e && typeof e.iteration === 'number') this.addToTurn(e, e.iteration, copied);
    if (e.event === 'terminate') this.close(e.ts);
    if (step && step.turn !== null) this.addStep(step, step.turn);
  }

  private addToTurn(e: RunEvent, turn: number, copied: boolean): void {
    let side = this.sides.get(turn);
    if (!side) {
      this.close(e.ts);
      side = {
        firstSeq: e.seq,
        startMs: e.ts,
        durationMs: 0,
        attempts: 0,
        text: '',
        stopReason: null,
        toolCalls: [],
        recovery: [],
        finished: false,
        vendor: null,
        model: null,
        copied,
      };
      this.sides.set(turn, side);
      this.current = side;
    }
    if (!side.finished) side.durationMs = Math.max(side.durationMs, e.ts - side.startMs);
    if (e.event === 'model_request' && !e.background) {
      side.attempts += 1;
      side.vendor = e.vendor;
      side.model = e.model;
      this.streaming = '';
    } else if (e.event === 'content_delta' && e.kind === 'text') {
      this.streaming += e.text;
      if (side.stopReason === null) side.text = this.streaming;
    } else if (e.event === 'llm_call' && !e.background) {
      const said = (e.message?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
      side.text = side.stopReason === null ? said : `${side.text}${said}`;
      side.stopReason = e.stop_reason;
    }
  }

  /** The turn that ran last ends at `ts`. */
  private close(ts: number): void {
    if (!this.current) return;
    this.current.durationMs = ts - this.current.startMs;
    this.current.finished = true;
    this.current = undefined;
  }

  private addStep(step: RunStep, turn: number): void {
    const side = this.sides.get(turn);
    if (!side) return;
    if (step.kind === 'tool') side.toolCalls.push(step.label);
    else if (step.kind !== 'request' && step.kind !== 'response') side.recovery.push(step.label);
    else if (step.kind === 'response' && step.background) side.recovery.push(step.label);
  }
}

/** A run's turns condensed, by turn number (the whole log through the one fold). */
export function turnSides(events: readonly RunEvent[]): Map<number, TurnSide> {
  const read = createStepReader();
  const fold = new TurnFold();
  for (const e of events) fold.add(e, read(e));
  return fold.sides;
}

/**
 * Both runs' turns side by side, turn n beside turn n, with the divergence's turn marked.
 * Each side is copied: a fold that goes on changes its own, not an answer already given.
 */
export function alignTurns(
  a: ReadonlyMap<number, TurnSide>,
  b: ReadonlyMap<number, TurnSide>,
  divergence: Divergence | null,
): AlignedTurn[] {
  const turns = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x - y);
  return turns.map((turn) => ({
    turn,
    a: copy(a.get(turn)),
    b: copy(b.get(turn)),
    diverged: divergence?.turn === turn,
  }));
}

function copy(side: TurnSide | undefined): TurnSide | null {
  return side ? { ...side, toolCalls: [...side.toolCalls], recovery: [...side.recovery] } : null;
}
