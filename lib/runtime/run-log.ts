import type { Clock } from '@/lib/clock';
import { EventLog, type Emit } from '@/lib/engine';
import {
  addToTotals,
  NO_TOTALS,
  terminateEvent,
  toStorableEvent,
  type EventBody,
  type RunEvent,
  type RunTotals,
} from '@/lib/protocol';
import { createSplitSecretHold } from './hold-split-secrets';
import { createRedactor, runSecrets, type Redactor } from './redact-secrets';

/** Why a log is closed by the run log rather than by the loop. */
export type FallbackReason = 'internal_error' | 'deadlock';

/**
 * One run's log, owned once. Every event the run writes passes here exactly once: a secret
 * split across content deltas is held back, the totals are folded (over what leaves, so the
 * totals handed with an event are those of the log up to it), `seq` is numbered (after the
 * hold, since a held part may go out as a delta of its own), an event too deep to encode is
 * replaced by its storage_error, and every value is redacted with every key the run has learned
 * (its own, the environment's, and each key a swap brought). What leaves through `onEvent` is
 * final, with the run's totals after it: the registry, the CLI and the store hand both on as
 * they are, and nothing folds the event again.
 */
export interface RunLog {
  /** The engine's emit: stamps run_id and the run clock's ts, then does all of the above. */
  readonly emit: Emit;
  /** Appends at a given run time (a fork's opening events, its parent's copied events). */
  emitAt(body: EventBody, ts: number): RunEvent;
  /** A key this run learned after it started (a swap's): redacted from every later event. */
  learnSecret(key: string): void;
  /** The redaction in force, for text that leaves the run outside its events (a server log). */
  redactText(text: string): string;
  /** Every key the run has learned so far (for a recording, which also looks for a key's pieces: lib/cassettes). */
  knownSecrets(): readonly string[];
  /** The turn in progress (the last iteration_start's), for events written outside the loop. */
  readonly iteration: number;
  /** Was the last model request a background call? (The fault wrapper asks as it goes out.) */
  readonly inBackground: boolean;
  /** The one fallback terminate: closes the log the loop left open. A no-op once closed. */
  close(reason: FallbackReason, message: string): void;
  readonly closed: boolean;
}

/** The marker a resumed run's log writes after the re-executed stored events. */
function resumedAfterRestart(replayed: number, turn: number): EventBody {
  return {
    event: 'resumed_after_restart',
    iteration: turn,
    at_turn: turn,
    replayed,
    reason:
      `the server process stopped while this run was in flight; the next server re-executed its ` +
      `${replayed} stored event${replayed === 1 ? '' : 's'} from the run's config and seed on the virtual clock, ` +
      `and each one it regenerated equals the stored one`,
    next: `the run goes on in turn ${turn} from where its stored log ends, as it would have gone uninterrupted`,
  };
}

export function createRunLog(options: {
  runId: string;
  clock: Clock;
  apiKey?: string | undefined;
  startTurn?: number | undefined;
  env: Record<string, string | undefined>;
  /** Each event as it leaves, final, with the run's totals after it (what the store writes the runs row from). */
  onEvent: (event: RunEvent, totals: Readonly<RunTotals>) => void;
  /**
   * A run taken up again after a server restart (lib/server/resume-runs.ts): the first `replayed`
   * events re-execute the stored log, and right after them the log writes its
   * `resumed_after_restart` (after run_start when nothing was stored), the one event the
   * uninterrupted run does not have.
   */
  restart?: { replayed: number } | undefined;
}): RunLog {
  const secrets = runSecrets({ apiKey: options.apiKey, env: options.env });
  let redactor: Redactor = createRedactor({ secrets });
  const hold = createSplitSecretHold(() => redactor);
  let totals: Readonly<RunTotals> = NO_TOTALS;
  // The turn in progress, for a terminate the loop could not write (a fork starts at its turn).
  let iteration = options.startTurn ?? 0;
  let inBackground = false;
  let seq = 0;
  // The seq after which a resumed run's marker goes (none for a run that was not resumed).
  const resumeAfter = options.restart ? Math.max(options.restart.replayed, 1) - 1 : -1;
  const log = new EventLog(options.runId, options.clock, (event) => {
    if (event.event === 'model_request') inBackground = event.background;
    if (event.event === 'iteration_start') iteration = event.iteration;
    let resumeNow = false;
    for (const out of hold(event)) {
      totals = addToTotals(totals, out);
      out.seq = seq;
      seq += 1;
      options.onEvent(redactor.value(toStorableEvent(out)), totals);
      if (out.seq === resumeAfter) resumeNow = true;
    }
    // After the loop, so the marker follows every event this one let out.
    if (resumeNow && options.restart) log.emit(resumedAfterRestart(options.restart.replayed, iteration));
  });

  return {
    emit: log.emit,
    emitAt: (body, ts) => log.emitAt(body, ts),
    learnSecret(key) {
      secrets.push(key);
      redactor = createRedactor({ secrets });
    },
    redactText: (text) => redactor.text(text),
    knownSecrets: () => secrets.filter((s): s is string => typeof s === 'string'),
    get iteration() {
      return iteration;
    },
    get inBackground() {
      return inBackground;
    },
    close(reason, message) {
      if (!log.closed) log.emit(terminateEvent({ iteration, reason, complete: false, message, totals }));
    },
    get closed() {
      return log.closed;
    },
  };
}
