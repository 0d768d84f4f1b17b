'use client';

import type { CompactionView } from '@/lib/run-view/context-view-state';
import { LongText } from '@/components/ui/long-text';
import { Pill } from '@/components/ui/pill';
import { WhyLine } from '@/components/explain/why-line';
import { tokens } from './context-gauge';

const WHAT: Record<CompactionView['step'], string> = {
  old_results: 'old results sent as stubs',
  micro_compact: 'micro-compact',
  summary: 'full compaction (summary call)',
  hard_trim: 'hard trim',
};

/**
 * Compaction steps outside the overflow waterfall (routine stubs, proactive and manual
 * summaries, refusals by the breaker): what each removed and, for a summary, the summary.
 */
export function CompactionSteps({ steps }: { steps: readonly CompactionView[] }) {
  const shown = steps.filter((s) => s.trigger !== 'overflow');
  if (shown.length === 0)
    return (
      <div className="text-2xs text-muted">
        No compaction yet: every request carries the whole conversation.
      </div>
    );
  return (
    <ol className="flex flex-col gap-1" data-testid="compaction-steps">
      {shown.map((s) => (
        <li
          key={s.seq}
          data-testid="compaction-step"
          data-step={s.step}
          data-ok={s.ok ? 'yes' : 'no'}
          className="rounded border border-line bg-panel px-1.5 py-1 text-2xs"
        >
          <div className="flex flex-wrap items-baseline gap-2">
            <span className="text-muted">turn {s.iteration}</span>
            <Pill tone={s.ok ? 'compact' : 'neutral'}>{s.trigger}</Pill>
            <span className="font-medium">{WHAT[s.step]}</span>
            {s.ok ? (
              <span className="tabular font-mono">
                {tokens(s.tokensBefore)} → {tokens(s.tokensAfter)} tokens · {s.messagesBefore} →{' '}
                {s.messagesAfter} messages sent
              </span>
            ) : (
              <span className="text-muted">did not apply: {s.reason}</span>
            )}
          </div>
          {s.ok && <div className="text-muted">{s.reason}</div>}
          <WhyLine seq={s.seq} linked />
          {s.stubbed.length > 0 && (
            <div className="font-mono text-muted">
              stubs:{' '}
              {s.stubbed.map((x) => `${x.tool} (turn ${x.iteration}, ${tokens(x.chars)} chars)`).join(', ')}
            </div>
          )}
          {s.summary !== undefined && (
            <div className="mt-1 border-l-2 border-compact pl-2" data-testid="compaction-summary">
              <LongText text={s.summary} max={400} />
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
