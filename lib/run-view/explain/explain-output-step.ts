import type { EventOf } from '@/lib/protocol';
import { checkNever } from '@/lib/protocol/check-never';
import type { GlossaryId } from '@/lib/mechanisms/glossary';
import { formatTokens } from '../format';

/** The "why" of an output-cap or Partial recovery step, from its fields. */
export function explainOutputStep(e: EventOf<'output_recovery'>): {
  why: string;
  term: GlossaryId;
  also?: readonly GlossaryId[];
} {
  const cut = `cut at ${formatTokens(e.output_tokens)} of ${formatTokens(e.max_tokens)} tokens (${e.stop_reason})`;
  const n =
    e.continuation !== undefined && e.max_continuations !== undefined
      ? ` ${e.continuation} of ${e.max_continuations}`
      : '';
  // A cut stream rarely carries its output count (the vendor sends usage at the end), so 0
  // means "not reported", not "nothing arrived": the event only exists because content did.
  const after =
    e.output_tokens > 0
      ? `after ${formatTokens(e.output_tokens)} tokens`
      : 'after content arrived (before the vendor reported an output count)';
  switch (e.action) {
    case 'escalate':
      return {
        why: `Response ${cut}: the same request goes again with a ${formatTokens(e.next_max_tokens ?? e.max_tokens)}-token cap; the cut output is dropped, the new answer replaces it.`,
        term: 'cap-escalation',
        also: ['output-cap'],
      };
    case 'continue':
      return {
        why: `Response ${cut} again: it is kept and the model is asked to go on (continuation${n}).`,
        term: 'continuation',
        also: ['output-cap'],
      };
    case 'exhausted':
      return {
        why: `Response ${cut} with no continuation left${n ? ` (${n.trim()} used)` : ''}: the run ends at the cap.`,
        term: 'continuation',
      };
    case 'refuse_truncated': {
      const tools = e.refused?.map((r) => r.tool).join(', ') ?? '';
      return {
        why: `Response ${cut}: ${e.refused?.length ?? 0} tool call${e.refused?.length === 1 ? '' : 's'} with cut arguments${tools ? ` (${tools})` : ''} refused; the model is asked to resend.`,
        term: 'refused-truncated',
      };
    }
    case 'continue_partial':
      return {
        why: `The stream was cut ${after} (Partial): what arrived is kept and the model is asked to continue, not billed twice.`,
        term: 'partial',
        also: ['continuation'],
      };
    case 'stop_partial':
      return {
        why: `The stream was cut ${after} (Partial): what arrived is presented as the answer and the loop stops.`,
        term: 'partial',
      };
    default:
      return checkNever(e.action);
  }
}
