import type { Criterion } from '@/lib/protocol/http/compare';
import type {
  ClockKind,
  MechanismId,
  RunConfigInput,
  RunEvent,
  RunEventType,
  TerminateReason,
  Vendor,
} from '@/lib/protocol';
import { configWithMechanismOff } from '@/lib/mechanisms/mechanisms';

/** Which run of a lesson: the mechanism on (as configured) or the same seed with it switched off. */
export type LessonSide = 'on' | 'off';

/** How one side of a lesson ends. */
export interface LessonOutcome {
  reason: TerminateReason;
  complete: boolean;
  /** One line a person reads beside that side's column. */
  says: string;
  /**
   * This ending is the mechanism doing its job, not a failure (a Partial presented and the
   * turn stopped): the words its column shows instead of "failed", when the run ends with
   * exactly this reason and complete. Absent: the ending is shown as any run's is.
   */
  byDesign?: string;
}

/**
 * A lesson is data: a failure, the run that shows it (scenario, preset and overrides, fault
 * plan, seed, vendor/model), the mechanism toggled, and the project's own words about it.
 * Adding a lesson is adding a file under catalog/ and listing it in index.ts.
 */
/**
 * The test runner's `expect` as a lesson's own claims use it: the lessons tests pass theirs in
 * (production code never imports the runner).
 */
export type ClaimExpect = (actual: unknown, message?: string) => ClaimAssertion;
interface ClaimAssertion {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toMatchObject(expected: object): void;
  toContain(expected: unknown): void;
  toMatch(expected: RegExp | string): void;
  toHaveLength(length: number): void;
  toBeUndefined(): void;
  not: ClaimAssertion;
}

export interface Lesson {
  slug: string;
  title: string;
  mechanism: MechanismId;
  /** The failure, in one sentence. */
  failure: string;
  /** The run with the mechanism on; clock and time scale are the player's. */
  config: Omit<RunConfigInput, 'clock' | 'timeScale'> & { seed: number };
  /**
   * A lesson whose two sides start from a stored parent run: `config` is the parent's, played to
   * its end on the virtual clock and stored (a run of its own, on the real code path), and each
   * side is a fork of it at `atTurn` onto `vendor` / `model`, the mechanism on or off on the fork.
   * Absent: each side is `config` itself.
   */
  fork?: { atTurn: number; vendor: Vendor; model: string };
  /** Wall time per unit of run time when played live on the paced clock (chosen so both sides play in under 30 s). */
  timeScale: number;
  text: {
    /** What goes wrong. */
    happens: string;
    /** What the mechanism does about it. */
    does: string;
    /** What it costs, and what going without it costs. */
    costs: string;
  };
  expect: Record<LessonSide, LessonOutcome>;
  /**
   * What "better" means in this lesson: the totals that decide, each with its direction, in
   * words. The report judges the two sides by these lines only (lib/compare/totals-diff).
   */
  criterion: Criterion;
  /** Where the two runs part (lib/compare's first divergence): the turn, and the event the mechanism's side takes there. */
  diverges: { turn: number | null; on: RunEventType };
  /** Its claims are about the runs' OTLP traces: the report shows both traces span by span. */
  trace?: true;
  /**
   * The claims its text makes, checked against the two runs it plays, for a lesson that keeps
   * them beside it (a mechanism module's, in its folder): the lessons tests call it with their
   * own `expect`. Other lessons' claims are in ./lesson-claims.testkit.ts.
   */
  claims?: (lesson: Lesson, runs: { on: RunEvent[]; off: RunEvent[] }, expect: ClaimExpect) => void;
}

/** The run config of one side of a lesson, on the given clock and time scale. */
export function lessonRunConfig(
  lesson: Lesson,
  side: LessonSide,
  clock: { clock: ClockKind; timeScale?: number },
): RunConfigInput {
  const base: RunConfigInput = {
    ...lesson.config,
    clock: clock.clock,
    timeScale: clock.timeScale ?? lesson.timeScale,
  };
  return side === 'on' ? base : configWithMechanismOff(base, lesson.mechanism);
}

/**
 * The words a side's ending is shown with when the lesson calls it the mechanism doing its job
 * (a Partial presented and the turn stopped) and the run ended exactly so — decided from the
 * terminate event's reason and complete, never from its text. null: show the ending as any run's.
 */
export function endingByDesign(
  outcome: LessonOutcome,
  end: { reason: TerminateReason; complete: boolean } | undefined,
): string | null {
  if (!outcome.byDesign || !end) return null;
  return end.reason === outcome.reason && end.complete === outcome.complete ? outcome.byDesign : null;
}
