import {
  runOutcome,
  type ErrorCategory,
  type RunEvent,
  type TaskVerdict,
  type TerminateReason,
} from '@/lib/protocol';

/** One failed attempt of the loop's own model calls (background calls such as the title left out). */
export interface FailedAttempt {
  iteration: number;
  attempt: number;
  category: ErrorCategory;
  /** The stream idle watchdog fired on this attempt, with this outcome. */
  watchdog?: 'empty' | 'partial';
  /** The same call's next attempt went out (not what was planned: what the log shows happened). */
  retried: boolean;
  /** The retry ladder's rung for it, when the loop scheduled a retry (retry_scheduled). */
  rung?: 'silent_retry' | 'degrade' | 'surface';
}

/** What a README caption may claim about a run, read from its events and nothing else. */
export interface RunFacts {
  outcome: ReturnType<typeof runOutcome>;
  reason: TerminateReason;
  /** The task verdict (null: the log has none). */
  verdict: TaskVerdict | null;
  /** Turns the run started (the run header's "turn n/…"). */
  turns: number;
  /** The run's totals as its terminate states them (the header's tokens in / out and cost). */
  inputTokens: number;
  outputTokens: number;
  usd: number;
  /** Requests turn 1's own call made, its first included. */
  firstTurnAttempts: number;
  failures: FailedAttempt[];
}

/** The facts of one whole run log (it must end with its terminate). */
export function factsOf(events: readonly RunEvent[]): RunFacts {
  const terminate = events.at(-1);
  if (terminate?.event !== 'terminate')
    throw new Error(`the log does not end with terminate (last: ${terminate?.event ?? 'nothing'})`);
  const requests = new Set<string>();
  const failures: FailedAttempt[] = [];
  const fired = new Map<string, 'empty' | 'partial'>();
  const rungs = new Map<string, NonNullable<FailedAttempt['rung']>>();
  let verdict: TaskVerdict | null = null;
  let firstTurnAttempts = 0;
  let turns = 0;
  // Events of one attempt follow its model_request: whose they are is the latest request's.
  let background = false;
  for (const e of events) {
    if (e.event === 'model_request') {
      background = e.background;
      if (background) continue;
      requests.add(`${e.iteration}:${e.attempt}`);
      if (e.iteration === 1) firstTurnAttempts += 1;
    } else if (e.event === 'model_error' && !background) {
      failures.push({ iteration: e.iteration, attempt: e.attempt, category: e.category, retried: false });
    } else if (e.event === 'watchdog_fired' && !background) {
      fired.set(`${e.iteration}:${e.attempt}`, e.outcome);
    } else if (e.event === 'retry_scheduled' && !background && e.account !== 'background') {
      rungs.set(`${e.iteration}:${e.attempt}`, e.rung);
    } else if (e.event === 'iteration_start') {
      turns += 1;
    } else if (e.event === 'task_verdict') {
      verdict = e.verdict;
    }
  }
  return {
    outcome: runOutcome(terminate),
    reason: terminate.reason,
    verdict,
    turns,
    inputTokens: terminate.input_tokens,
    outputTokens: terminate.output_tokens,
    usd: terminate.usd_so_far,
    firstTurnAttempts,
    failures: failures.map((f) => {
      const key = `${f.iteration}:${f.attempt}`;
      const watchdog = fired.get(key);
      const rung = rungs.get(key);
      return {
        ...f,
        ...(watchdog ? { watchdog } : {}),
        retried: requests.has(`${f.iteration}:${f.attempt + 1}`),
        ...(rung ? { rung } : {}),
      };
    }),
  };
}
