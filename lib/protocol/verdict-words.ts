import type { EventOf } from './events';

type VerdictTests = Pick<EventOf<'task_verdict'>, 'tests_missing' | 'hidden_tests' | 'hidden_failed'>;

/**
 * What the task verdict found about the tests beyond the check's report, in words, from the
 * event's own fields: shipped tests that did not run (by name), and the hidden tests (how many
 * ran, how many failed or did not run). One source for the run view, the CLI and the comparison
 * lines. Empty when the event carries neither (a workspace verdict, no answer, an older log).
 */
export function verdictTestsWords(event: VerdictTests): { missing?: string; hidden?: string } {
  const missing = event.tests_missing ?? [];
  const failed = event.hidden_failed ?? [];
  const total = event.hidden_tests;
  return {
    ...(missing.length > 0
      ? {
          missing: `${missing.length === 1 ? 'shipped test' : `${missing.length} shipped tests`} did not run: ${quoted(missing)}`,
        }
      : {}),
    ...(total !== undefined && total > 0
      ? {
          hidden:
            failed.length === 0
              ? `hidden tests: all ${total} passed`
              : `hidden tests: ${failed.length} of ${total} failed or did not run (${quoted(failed)})`,
        }
      : {}),
  };
}

/** The hidden tests' count beside the verdict, short enough for a pill: "6 hidden tests passed", "4 of 6 hidden tests failed". */
export function hiddenTestsLabel(event: VerdictTests): string | undefined {
  const total = event.hidden_tests;
  if (total === undefined || total === 0) return undefined;
  const failed = event.hidden_failed?.length ?? 0;
  return failed === 0
    ? `${total} hidden ${total === 1 ? 'test' : 'tests'} passed`
    : `${failed} of ${total} hidden tests failed`;
}

/** The shipped tests that did not run, counted for a pill: "1 shipped test did not run". */
export function missingTestsLabel(event: VerdictTests): string | undefined {
  const count = event.tests_missing?.length ?? 0;
  return count === 0 ? undefined : `${count} shipped ${count === 1 ? 'test' : 'tests'} did not run`;
}

/** Both short labels, for one-line summaries (the CLI, the comparison's end lines); empty when the event has neither. */
export function verdictTestsLabels(event: VerdictTests): string[] {
  return [missingTestsLabel(event), hiddenTestsLabel(event)].filter((l): l is string => l !== undefined);
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}
