import type { EventOf } from '@/lib/protocol';
import { checkNever } from '@/lib/protocol/check-never';
import type { GlossaryId } from '@/lib/mechanisms/glossary';
import { formatMs, formatTokens } from '../format';

type ContextStepEvent = EventOf<'compaction' | 'context_overflow' | 'context_recovered' | 'breaker'>;

const STEP_TERM: Record<EventOf<'compaction'>['step'], GlossaryId> = {
  old_results: 'old-result-compaction',
  micro_compact: 'micro-compact',
  summary: 'proactive-summary',
  hard_trim: 'hard-trim',
};

const TRIGGER_WORDS: Record<EventOf<'compaction'>['trigger'], string> = {
  routine: 'old results aged out',
  proactive: 'the request neared the threshold',
  overflow: 'the vendor said the prompt is too long',
  manual: 'Compact now was pressed',
};

/** The "why" of a context-channel step (compaction, overflow, recovery, breaker), from its fields. */
export function explainContextStep(e: ContextStepEvent): {
  why: string;
  term: GlossaryId;
  also?: readonly GlossaryId[];
} {
  switch (e.event) {
    case 'compaction': {
      const term =
        e.trigger === 'overflow' && e.step === 'summary' ? 'overflow-waterfall' : STEP_TERM[e.step];
      const rung = e.recovery_attempt !== undefined ? ` (overflow recovery ${e.recovery_attempt})` : '';
      if (!e.ok)
        return {
          why: `${cap(stepWord(e.step))} did not apply${rung}: ${e.reason}.`,
          term,
          also: e.step === 'summary' ? ['circuit-breaker'] : [],
        };
      const stubs =
        e.stubbed.length > 0
          ? `, ${e.stubbed.length} result${e.stubbed.length === 1 ? '' : 's'} sent as stubs`
          : '';
      return {
        why: `${cap(stepWord(e.step))} because ${TRIGGER_WORDS[e.trigger]}${rung}: ${formatTokens(e.tokens_before)} → ${formatTokens(e.tokens_after)} tokens sent, ${e.messages_before} → ${e.messages_after} messages${stubs}; the log keeps everything.`,
        term,
        also: e.trigger === 'overflow' ? ['overflow-waterfall'] : [],
      };
    }
    case 'context_overflow':
      return e.outcome === 'recovering'
        ? {
            why: `Prompt too long (~${formatTokens(e.tokens_est)} tokens): overflow recovery ${e.recovery_attempt} of ${e.budget} starts the waterfall.`,
            term: 'overflow-waterfall',
          }
        : {
            why: `Still too long after ${e.budget} overflow recover${e.budget === 1 ? 'y' : 'ies'} (~${formatTokens(e.tokens_est)} tokens): the budget is spent and the run ends.`,
            term: 'overflow-waterfall',
          };
    case 'context_recovered':
      return {
        why: `The call went through after ${e.recovery_attempts} overflow recover${e.recovery_attempts === 1 ? 'y' : 'ies'} (~${formatTokens(e.tokens_est)} tokens): the overflow budget starts over.`,
        term: 'overflow-waterfall',
      };
    case 'breaker':
      switch (e.state) {
        case 'open':
          return {
            why: `Breaker open after ${e.consecutive_failures} consecutive summary failures: summaries are skipped${e.reopen_at !== undefined ? ` until ${formatMs(e.reopen_at)} of run time` : ''}, then one probe.`,
            term: 'circuit-breaker',
          };
        case 'half_open':
          return {
            why: `Cool-down over: the next summary call is a probe (${e.reason}).`,
            term: 'half-open',
            also: ['circuit-breaker'],
          };
        case 'closed':
          return e.consecutive_failures > 0
            ? {
                why: `Summary failed (${e.consecutive_failures} in a row); the breaker stays closed for now: ${e.reason}.`,
                term: 'circuit-breaker',
              }
            : {
                why: `Breaker closed: ${e.reason}, so summaries are allowed again.`,
                term: 'circuit-breaker',
              };
        default:
          return checkNever(e.state);
      }
    default:
      return checkNever(e);
  }
}

function stepWord(step: EventOf<'compaction'>['step']): string {
  return {
    old_results: 'old results as stubs',
    micro_compact: 'micro-compact',
    summary: 'summary',
    hard_trim: 'hard trim',
  }[step];
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
