import type { EventOf } from '@/lib/protocol';
import { checkNever } from '@/lib/protocol/check-never';
import { cap, type Explanation } from './explanation';

/** The "why" of a loop-guard step on a tool, from its fields. */
export function explainGuard(e: EventOf<'tool_guard'>): Explanation {
  const left =
    e.budget_left !== undefined ? ` (${e.budget_left} failure${e.budget_left === 1 ? '' : 's'} left)` : '';
  const failures =
    e.consecutive_failures !== undefined
      ? `${e.consecutive_failures} consecutive tool failure${e.consecutive_failures === 1 ? '' : 's'}`
      : 'repeated failures';
  switch (e.kind) {
    case 'warning':
      return {
        why: `Loop guard warning after ${failures}: the model is told it may be going in circles.${left}`,
        term: 'loop-guard',
      };
    case 'blocked':
      return {
        why: `${e.tool} blocked: the same call with the same arguments was already made — a third time would not help.`,
        term: 'blocked',
        also: ['loop-guard'],
      };
    case 'short_circuit':
      return {
        why: `${e.tool} short-circuited: this exact call already failed, so it is answered with that failure without running again.${left}`,
        term: 'short-circuit',
      };
    case 'disabled':
      return {
        why: `${e.tool} disabled for the rest of the run: its failure budget is spent.`,
        term: 'failure-budget',
      };
    case 'halt':
      return {
        why: `Run halted after ${failures}: the model is not making progress.`,
        term: 'halt',
        also: ['loop-guard'],
      };
    case 'rate_limited':
      // The executor wrote both the reason and what happens next: shown as written.
      return { why: `${cap(e.reason)}: ${e.next ?? 'refused without running'}.`, term: 'check-rate' };
    default:
      return checkNever(e.kind);
  }
}

/** The "why" of a tool call that was a mechanism's step (failed, refused, repaired, cut); undefined for one that simply worked. */
export function explainToolCall(e: EventOf<'tool_call'>): Explanation | undefined {
  const left =
    e.budget_left !== undefined
      ? ` ${e.tool} has ${e.budget_left} failure${e.budget_left === 1 ? '' : 's'} left before it is disabled.`
      : '';
  const truncated = e.truncated_chars
    ? {
        why: `Output cut by ${e.truncated_chars.toLocaleString('en-US')} chars: the model is told how to read the rest.`,
        term: 'truncation' as const,
      }
    : undefined;
  switch (e.status) {
    case undefined:
    case 'ok':
      if (e.is_error)
        return {
          why: `${e.tool} failed; the error goes back to the model as a result it can act on.${left}`,
          term: 'tool-error',
        };
      return e.repaired
        ? {
            why: `${e.tool} ran with arguments the repair ladder fixed (${e.repaired.map((r) => REPAIR_WORDS[r]).join(', then ')}): the model was not asked again.`,
            term: 'arg-repair',
          }
        : truncated;
    case 'error':
    case 'invalid_args':
    case 'unknown_tool':
    case 'timeout':
      return {
        why: `${e.tool} ${STATUS_WORDS[e.status]}: the model gets a specific error it can correct, not a crash.${left}`,
        term: 'tool-error',
        also: ['failure-budget'],
      };
    case 'short_circuit':
      return {
        why: `${e.tool}: the same call already failed, so the earlier failure is returned without running it.${left}`,
        term: 'short-circuit',
      };
    case 'blocked':
      return { why: `${e.tool}: identical call blocked by the loop guard.`, term: 'blocked' };
    case 'disabled':
      return {
        why: `${e.tool} is disabled for this run: its failure budget was spent.`,
        term: 'failure-budget',
      };
    case 'refused_truncated':
      return {
        why: `${e.tool}: its arguments were cut by the output cap and do not parse, so the call is refused and the model asked to resend it.`,
        term: 'refused-truncated',
      };
    case 'rate_limited':
      return {
        why: `${e.tool}: refused without running by the run's check rate (the tool_guard before it says when it may run again).`,
        term: 'check-rate',
      };
    case 'interrupted':
      return {
        why: `${e.tool} was interrupted: its result never came back (what the loop did about it is the dangling-calls step that follows).`,
        term: 'dangling-call',
      };
    default:
      return checkNever(e.status);
  }
}

const REPAIR_WORDS = { json: 'the JSON text', coerce: 'values fitted to the schema' } as const;

const STATUS_WORDS = {
  error: 'failed',
  invalid_args: 'got arguments that do not fit its schema',
  unknown_tool: 'does not exist',
  timeout: 'timed out',
} as const;
