import type { TaskVerdict } from '@/lib/protocol';
import { VERDICT_TONE, VERDICT_WORDS } from '@/lib/client/describe-verdict';
import { Pill } from './pill';

/** The task verdict as a pill; its title carries the check's report. */
export function VerdictPill({ verdict, title }: { verdict: TaskVerdict; title?: string }) {
  return (
    <span data-testid="task-verdict" data-verdict={verdict} className="inline-flex">
      <Pill tone={VERDICT_TONE[verdict]} title={title}>
        {VERDICT_WORDS[verdict]}
      </Pill>
    </span>
  );
}
