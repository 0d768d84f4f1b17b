import type { TaskVerdict } from '@/lib/protocol';

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
