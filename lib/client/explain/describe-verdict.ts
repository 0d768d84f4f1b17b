import type { EventOf, TaskVerdict } from '@/lib/protocol';

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
export const VERDICT_TONE = { done: 'ok', not_done: 'fail', not_checkable: 'neutral' } as const satisfies Record<TaskVerdict, string>;

/** Reads a verdict from an untyped summary field (older runs have none). */
export function parseVerdict(value: unknown): TaskVerdict | undefined {
  return value === 'done' || value === 'not_done' || value === 'not_checkable' ? value : undefined;
}

/**
 * What the verdict says about the scenario's test files, in words, when the model edited any:
 * which, and whether the verdict ran them as shipped (the edit did not count) or as edited.
 * Undefined when the model left them alone (or the log predates the field).
 */
export function editedTestsNote(event: Pick<EventOf<'task_verdict'>, 'tests_run' | 'tests_edited'>): string | undefined {
  const edited = event.tests_edited ?? [];
  if (edited.length === 0) return undefined;
  const files = edited.join(', ');
  const which = edited.length === 1 ? 'test file' : 'test files';
  if (event.tests_run === 'workspace') return `the model edited the ${which} ${files}; this verdict ran the edited copies`;
  return `the model edited the ${which} ${files}; this verdict ran ${edited.length === 1 ? 'it' : 'them'} as the scenario shipped ${edited.length === 1 ? 'it' : 'them'}`;
}
