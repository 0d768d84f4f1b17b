import type { EventOf, RunEvent, TaskVerdict } from '@/lib/protocol';
import type { CompareSide } from '@/lib/protocol/http/compare';
import { TurnFold } from './align-turns';
import { createStepReader, type RunStep } from './run-steps';
import { TotalsFold } from './run-totals';

/** A log that cannot be compared: it has no run_start to say what it ran. */
export class NotComparableError extends Error {}

/**
 * One side of a comparison, folded one event at a time in log order: who the run is, its
 * turns condensed, its totals and how it ended. It keeps these and not the events: a log
 * that grows is read once, and a refresh costs only the events that are new.
 */
export class RunFold {
  readonly turns = new TurnFold();
  readonly totals = new TotalsFold();
  /** The labels of the run's end (task verdict, terminate): steps of no turn. */
  readonly end: string[] = [];
  /** Every vendor the run's swap events moved it to. */
  readonly swappedTo = new Set<string>();
  private readonly read = createStepReader();
  private first: RunEvent | undefined;
  private last: RunEvent | undefined;
  private title: string | null = null;
  private verdict: TaskVerdict | null = null;
  private count = 0;
  private forkedFrom: CompareSide['forkedFrom'] = null;
  private copied: CompareSide['copied'] = null;
  /** Events still to come that a fork copied from its parent (they follow its forked_from). */
  private copiedLeft = 0;

  /** Adds an event and returns the step it is (null: it carries no behaviour of its own). */
  add(e: RunEvent): RunStep | null {
    this.first ??= e;
    this.last = e;
    this.count += 1;
    if (e.event === 'run_title') this.title = e.title;
    else if (e.event === 'task_verdict') this.verdict = e.verdict;
    else if (e.event === 'swap') this.swappedTo.add(e.to_vendor);
    const copied = this.copiedLeft > 0;
    if (copied) {
      this.copiedLeft -= 1;
      if (this.copied) this.copied.durationMs = Math.max(this.copied.durationMs, e.ts);
    }
    if (e.event === 'forked_from') {
      this.forkedFrom = { runId: e.parent_run_id, turn: e.turn };
      this.copiedLeft = e.copied_events;
      const { inherited } = e;
      this.copied = {
        turns: e.turn,
        durationMs: e.ts,
        inputTokens: inherited.input_tokens,
        outputTokens: inherited.output_tokens,
        usd: inherited.usd,
      };
    }
    const step = this.read(e);
    this.turns.add(e, step, copied);
    this.totals.add(e);
    if (step && step.turn === null) this.end.push(step.label);
    return step;
  }

  /** Seq of the last event read (-1: none yet): the next read starts after it. */
  get lastSeq(): number {
    return this.last?.seq ?? -1;
  }

  get ended(): boolean {
    return this.last?.event === 'terminate';
  }

  /** The run_start the log opens with; a log without one cannot be compared. */
  start(id: string): EventOf<'run_start'> {
    if (this.first?.event !== 'run_start')
      throw new NotComparableError(`Run "${id}" has no run_start event yet, so there is nothing to compare`);
    return this.first;
  }

  side(id: string): CompareSide {
    const start = this.start(id);
    const last = this.last;
    return {
      id,
      title: this.title,
      scenario: start.scenario.id,
      vendor: start.vendor,
      model: start.model,
      preset: start.config.preset,
      seed: start.config.seed,
      running: last?.event !== 'terminate',
      reason: last?.event === 'terminate' ? last.reason : null,
      verdict: this.verdict,
      eventCount: this.count,
      clock: start.config.clock,
      timeScale: start.config.timeScale,
      clockTs: last?.ts ?? 0,
      forkedFrom: this.forkedFrom,
      copied: this.copied ? { ...this.copied } : null,
    };
  }
}
