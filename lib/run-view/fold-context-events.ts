/** The run-view folds of the context channel's events: what each step did to the context, in the status line. */
import type { EventOf } from '@/lib/protocol';
import { foldCompaction, foldOverflow, foldRecovered } from './context-view-state';
import type { RunViewState } from './run-view-state';
import { turnLabel } from './turn-updates';

const STEP_WORDS: Record<EventOf<'compaction'>['step'], string> = {
  old_results: 'old results sent as stubs',
  micro_compact: 'micro-compact',
  summary: 'full compaction (summary)',
  hard_trim: 'hard trim',
};

function compactionReason(e: EventOf<'compaction'>): string {
  const what = STEP_WORDS[e.step];
  if (!e.ok) return `${what} did not apply: ${e.reason}`;
  return `${what}: ${e.tokens_before.toLocaleString('en-US')} → ${e.tokens_after.toLocaleString('en-US')} tokens`;
}

/** A compaction step: the context it left, and the status line saying what it did. */
export function foldCompactionStep(s: RunViewState, e: EventOf<'compaction'>): RunViewState {
  return {
    ...s,
    context: foldCompaction(s.context, e),
    status: e.trigger === 'overflow' ? 'recovering' : s.status,
    reason: `${turnLabel(e.iteration)}: ${compactionReason(e)}`,
  };
}

/** A prompt too long for the window: the overflow recovery's attempt, or its budget spent. */
export function foldContextOverflow(s: RunViewState, e: EventOf<'context_overflow'>): RunViewState {
  return {
    ...s,
    context: foldOverflow(s.context, e),
    status: 'recovering',
    reason:
      e.outcome === 'exhausted'
        ? `${turnLabel(e.iteration)}: prompt still too long, overflow budget of ${e.budget} spent`
        : `${turnLabel(e.iteration)}: prompt too long — overflow recovery ${e.recovery_attempt} of ${e.budget}`,
  };
}

/** The compacted request went through: the run is running again. */
export function foldContextRecovered(s: RunViewState, e: EventOf<'context_recovered'>): RunViewState {
  return {
    ...s,
    context: foldRecovered(s.context, e),
    status: 'running',
    reason: `${turnLabel(e.iteration)}: the compacted request went through`,
  };
}
