import type { RunEvent } from '@/lib/protocol';
import type { Comparison } from '@/lib/protocol/http/compare';
import { alignTurns } from './align-turns';
import { configDiff } from './config-diff';
import { DivergenceScan } from './first-divergence';
import { promptOnlyDifference } from './prompt-only';
import { RunFold } from './run-fold';
import { totalsDiff, type Criterion } from './totals-diff';

export { NotComparableError } from './run-fold';

export interface CompareInput {
  id: string;
  events: readonly RunEvent[];
}

/**
 * Two runs side by side from their logs alone: turns aligned, the first divergence, totals
 * (only for runs that ended) and the configs field by field.
 */
export function compareRuns(a: CompareInput, b: CompareInput, options: ComparisonOptions = {}): Comparison {
  const fold = new ComparisonFold();
  fold.add('a', a.events);
  fold.add('b', b.events);
  return fold.comparison(a.id, b.id, options);
}

export interface ComparisonOptions {
  /** What "better" means for this pair (a lesson's measure); absent: the general rules of totalsDiff. */
  criterion?: Criterion | undefined;
}

/**
 * The same comparison kept as two folds and the divergence scan, for a side that is still
 * running: each call to `add` reads only the events after the ones it has, and `comparison`
 * answers from what the folds hold. It is the one path: compareRuns is this fed whole logs.
 */
export class ComparisonFold {
  readonly a = new RunFold();
  readonly b = new RunFold();
  readonly scan = new DivergenceScan();
  /** Both run_starts are fixed once read: their diff is worked out once. */
  private config: Comparison['config'] | undefined;

  /** Appends a side's next events (in log order, none already added). */
  add(side: 'a' | 'b', events: readonly RunEvent[]): void {
    const fold = this[side];
    for (const e of events) {
      const step = fold.add(e);
      if (step) this.scan.add(side, step);
    }
  }

  comparison(idA: string, idB: string, options: ComparisonOptions = {}): Comparison {
    const startA = this.a.start(idA);
    const startB = this.b.start(idB);
    const divergence = this.scan.divergence();
    // Vendors a run moved to by control message are not in its config; its swap events name them.
    const promptOnly = promptOnlyDifference(startA.config, startB.config, [
      ...this.a.swappedTo,
      ...this.b.swappedTo,
    ]);
    return {
      a: this.a.side(idA),
      b: this.b.side(idB),
      turns: alignTurns(this.a.turns.sides, this.b.turns.sides, divergence),
      end: { a: [...this.a.end], b: [...this.b.end] },
      divergence,
      totals: totalsDiff(this.a.totals.totals(), this.b.totals.totals(), {
        criterion: options.criterion,
        promptOnly: promptOnly !== null,
      }),
      config: (this.config ??= configDiff(startA, startB)),
      promptOnly,
    };
  }
}
