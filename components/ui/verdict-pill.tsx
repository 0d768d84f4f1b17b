import type { TaskVerdict } from '@/lib/protocol';
import { VERDICT_TONE, VERDICT_WORDS } from '@/lib/client/explain/describe-verdict';
import { Pill } from './pill';

/**
 * The task verdict as a pill; its title carries the check's report. When the model edited the
 * scenario's test files, a second pill says so (its title: which files, and what the verdict ran).
 */
export function VerdictPill({ verdict, title, testsNote }: { verdict: TaskVerdict; title?: string; testsNote?: string | undefined }) {
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
    </span>
  );
}
