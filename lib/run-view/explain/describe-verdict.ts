import type { EventOf, TaskVerdict } from '@/lib/protocol';
import { hiddenTestsLabel, missingTestsLabel, verdictTestsWords } from '@/lib/protocol/verdict-words';

/**
 * Words for the task verdict, apart from how the loop ended: "completed" says the loop ended
 * cleanly, not that the work is done — a model that gives up also ends its turn.
 */
export const VERDICT_WORDS: Record<TaskVerdict, string> = {
  done: 'task done',
  not_done: 'task not done',
  not_checkable: 'task not checkable',
};

/** The tone a verdict is drawn in (done green, not done red, not checkable neutral). */
export const VERDICT_TONE = {
  done: 'ok',
  not_done: 'fail',
  not_checkable: 'neutral',
} as const satisfies Record<TaskVerdict, string>;

/** Reads a verdict from an untyped summary field (older runs have none). */
export function parseVerdict(value: unknown): TaskVerdict | undefined {
  return value === 'done' || value === 'not_done' || value === 'not_checkable' ? value : undefined;
}

/**
 * What the verdict says about the scenario's test files, in words, when the model edited any:
 * which, and whether the verdict ran them as shipped (the edit did not count) or as edited.
 * Undefined when the model left them alone (or the log predates the field).
 */
export function editedTestsNote(
  event: Pick<EventOf<'task_verdict'>, 'tests_run' | 'tests_edited'>,
): string | undefined {
  const edited = event.tests_edited ?? [];
  if (edited.length === 0) return undefined;
  const files = edited.join(', ');
  const which = edited.length === 1 ? 'test file' : 'test files';
  if (event.tests_run === 'workspace')
    return `the model edited the ${which} ${files}; this verdict ran the edited copies`;
  return `the model edited the ${which} ${files}; this verdict ran ${edited.length === 1 ? 'it' : 'them'} as the scenario shipped ${edited.length === 1 ? 'it' : 'them'}`;
}

/** The hidden tests beside the verdict: a short label, a title that names what failed, and whether any did. */
export interface HiddenTestsNote {
  label: string;
  title: string;
  failed: boolean;
}

/**
 * What the verdict's hidden tests found, from the event's fields: how many ran against the final
 * code and which failed or did not run. Undefined when none ran (a workspace verdict, no answer,
 * a log written before hidden tests).
 */
export function hiddenTestsNote(
  event: Pick<EventOf<'task_verdict'>, 'hidden_tests' | 'hidden_failed'>,
): HiddenTestsNote | undefined {
  const label = hiddenTestsLabel(event);
  const words = verdictTestsWords(event).hidden;
  if (label === undefined || words === undefined) return undefined;
  return {
    label,
    title: `the verdict also ran ${event.hidden_tests} hidden tests (inputs the model never saw) against the final code — ${words}`,
    failed: (event.hidden_failed?.length ?? 0) > 0,
  };
}

/** The shipped tests that did not run: a short label and a title that names them; undefined when every one ran (or the log predates the field). */
export function missingTestsNote(
  event: Pick<EventOf<'task_verdict'>, 'tests_missing'>,
): { label: string; title: string } | undefined {
  const label = missingTestsLabel(event);
  const words = verdictTestsWords(event).missing;
  if (label === undefined || words === undefined) return undefined;
  return { label, title: `${words}; the verdict requires every one, by name` };
}
