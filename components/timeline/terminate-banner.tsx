'use client';

import { formatMs } from '@/lib/run-view/format';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { statusWord } from '@/lib/run-view/run-view-state';
import { TONE_PILL, statusTone } from '@/components/ui/tone';
import { VerdictPill } from '@/components/ui/verdict-pill';
import { WhyLine } from '@/components/explain/why-line';

/**
 * How the run ended: the terminate reason, and beside it the task verdict (was the work done).
 * `endedAs`: the ending is a mechanism doing its job (see RunHeader), said so and not in the failure's colour.
 */
export function TerminateBanner({ endedAs }: { endedAs?: string | null } = {}) {
  const terminate = useRunStore((s) => s.view.terminate);
  const status = useRunStore((s) => s.view.status);
  const verdict = useRunStore((s) => s.view.verdict);
  if (!terminate) return null;
  return (
    <div
      data-testid="terminate-banner"
      data-reason={terminate.reason}
      data-complete={String(terminate.complete)}
      data-ended-as={endedAs ?? undefined}
      className={`mx-4 mt-2 flex flex-wrap items-center gap-x-3 rounded border px-3 py-1.5 text-xs ${TONE_PILL[endedAs ? 'ok' : statusTone(status)]}`}
    >
      <span className="font-semibold">
        {endedAs ? `${endedAs}: the mechanism did its job` : `Run ${statusWord(status)}`}
      </span>
      <span className="font-mono">reason: {terminate.reason}</span>
      <span className="font-mono">complete: {String(terminate.complete)}</span>
      {verdict && (
        <VerdictPill
          verdict={verdict.verdict}
          title={verdict.detail}
          testsNote={verdict.testsNote}
          missing={verdict.missing}
          hidden={verdict.hidden}
        />
      )}
      <span className="font-mono">at {formatMs(terminate.ts)}</span>
      <WhyLine seq={terminate.seq} className="text-xs" linked />
    </div>
  );
}
