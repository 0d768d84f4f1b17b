import type { TaskVerdict } from '@/lib/protocol';
import { VERDICT_TONE, VERDICT_WORDS, type HiddenTestsNote } from '@/lib/run-view/explain/describe-verdict';
import { Pill } from './pill';

/**
 * The task verdict as a pill; its title carries the check's report. Beside it, from the
 * verdict event's own fields: when the model edited the scenario's test files, a pill says so
 * (its title: which files, and what the verdict ran); when shipped tests did not run, a pill
 * names them; and a pill counts the hidden tests the verdict ran (its title: which failed).
 */
export function VerdictPill({
  verdict,
  title,
  testsNote,
  missing,
  hidden,
}: {
  verdict: TaskVerdict;
  title?: string;
  testsNote?: string | undefined;
  missing?: { label: string; title: string } | undefined;
  hidden?: HiddenTestsNote | undefined;
}) {
  return (
    <span data-testid="task-verdict" data-verdict={verdict} className="inline-flex items-center gap-1">
      <Pill tone={VERDICT_TONE[verdict]} title={title}>
        {VERDICT_WORDS[verdict]}
      </Pill>
      {testsNote && (
        <Pill tone="wait" title={testsNote} testId="tests-edited">
          test edited by the model
        </Pill>
      )}
      {missing && (
        <Pill tone="fail" title={missing.title} testId="tests-missing">
          {missing.label}
        </Pill>
      )}
      {hidden && (
        <Pill tone={hidden.failed ? 'fail' : 'neutral'} title={hidden.title} testId="hidden-tests">
          {hidden.label}
        </Pill>
      )}
    </span>
  );
}
