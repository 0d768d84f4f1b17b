import type { EventOf, RunEvent, RunEventType, TerminateReason } from '@/lib/protocol';
import { checkNever } from '@/lib/protocol/check-never';
import { verdictTestsWords } from '@/lib/protocol/verdict-words';
import type { GlossaryId } from '@/lib/mechanisms/glossary';
import {
  isModuleEvent,
  MODULE_EVENT_TYPES,
  moduleWords,
  type ModuleEventType,
} from '@/lib/mechanisms/modules/about';
import { terminateText } from './describe-run';
import { explainContextStep } from './explain-context-step';
import { explainOutputStep } from './explain-output-step';
import { errorCause, formatMs, keepaliveLabel } from '../format';
import { cap, type Explanation } from './explanation';
import { explainGuard, explainToolCall } from './explain-tool-step';
import { explainSwap, explainTakeover, explainTakeoverOutcome } from './explain-swap-step';

export type { Explanation } from './explanation';

/** The event types that are a mechanism's step: each has an explanation. */
export const EXPLAINED_TYPES = [
  'retry_scheduled',
  'retry_declined',
  'watchdog_fired',
  'keepalive',
  'sdk_retry',
  'fallback',
  'model_cooldown',
  'model_error',
  'tool_guard',
  'arg_repair',
  'tool_call',
  'compaction',
  'context_overflow',
  'context_recovered',
  'breaker',
  'output_recovery',
  'swap',
  'takeover_report',
  'takeover_outcome',
  'off_recording',
  'task_verdict',
  'terminate',
  'mechanism_decision',
] as const satisfies readonly RunEventType[];

export type ExplainedType = (typeof EXPLAINED_TYPES)[number] | ModuleEventType;
export type ExplainedEvent = EventOf<ExplainedType>;

// The mechanism modules' events are explained in their own words (lib/mechanisms/<name>/about.ts).
const EXPLAINED: ReadonlySet<string> = new Set([...EXPLAINED_TYPES, ...MODULE_EVENT_TYPES]);

export function isExplained(event: RunEvent): event is ExplainedEvent {
  return EXPLAINED.has(event.event);
}

/**
 * Why this step happened. Undefined only for an instance that is no mechanism's step (a
 * tool call that simply worked).
 */
export function explainEvent(event: ExplainedEvent): Explanation | undefined {
  if (isModuleEvent(event)) {
    const { why, term, also } = moduleWords(event).explain(event);
    // A module's terms are its own glossary entries (lib/mechanisms/glossary.test.ts holds them to it).
    return { why, term: term as GlossaryId, ...(also ? { also: also as GlossaryId[] } : {}) };
  }
  switch (event.event) {
    case 'retry_scheduled': {
      const explained = explainRetry(event);
      return { ...explained, why: `${explained.why}${ownRowWords(event)}` };
    }
    case 'retry_declined':
      return {
        why: `${cap(event.why)}${ownRowWords(event)}`,
        term: DECLINED_TERM[event.rule],
        also: event.rule === 'partial_kept' ? ['watchdog'] : ['retry-budget'],
      };
    case 'watchdog_fired':
      // The watchdog decides Empty or Partial; whether the call is retried is the retry
      // decision that follows (retry_scheduled or retry_declined), which says so itself.
      return event.outcome === 'empty'
        ? {
            why: `No stream event for ${formatMs(event.window_ms)} and no content yet (Empty): nothing arrived, so nothing was billed.`,
            term: 'empty',
            also: ['watchdog'],
          }
        : {
            why: `No stream event for ${formatMs(event.window_ms)} after content arrived (Partial): a retry would bill that content twice.`,
            term: 'partial',
            also: ['watchdog'],
          };
    case 'keepalive':
      return {
        why: `${cap(keepaliveLabel(event.count, event.style))} on request ${event.request_no} so far: the connection is alive but sends no content; the SDK drops keepalives, so the watchdog keeps counting.`,
        term: 'keepalive',
        also: ['watchdog'],
      };
    case 'sdk_retry':
      return {
        why: `${cap(event.why)} (${event.formula}).`,
        term: 'sdk-retry',
        also: ['retry-amplification'],
      };
    case 'fallback':
      return {
        why:
          event.cause === 'context_window'
            ? `${cap(event.reason)}.`
            : event.cause === 'cooldown'
              ? `${cap(event.reason)}: the call moves from ${event.from_model} to ${event.to_model}.`
              : `${event.reason}: ${event.from_model} is busy, so the call moves to ${event.to_model}.`,
        term: 'fallback-model',
      };
    case 'model_cooldown':
      // The retry policy's per-model cooldown, on the run's clock: the engine's reason says which model and until when.
      return { why: `${cap(event.reason)}.`, term: 'fallback-model' };
    case 'model_error':
      return explainError(event);
    case 'tool_guard':
      return explainGuard(event);
    case 'arg_repair':
      return { why: cap(event.why), term: 'arg-repair', also: event.next === 'reask' ? ['tool-error'] : [] };
    case 'tool_call':
      return explainToolCall(event);
    case 'compaction':
    case 'context_overflow':
    case 'context_recovered':
    case 'breaker':
      return explainContextStep(event);
    case 'output_recovery':
      return explainOutputStep(event);
    case 'swap':
      return explainSwap(event);
    case 'takeover_report':
      return explainTakeover(event);
    case 'takeover_outcome':
      return explainTakeoverOutcome(event);
    case 'off_recording':
      return { why: cap(event.why), term: 'off-recording', also: ['cassette'] };
    case 'task_verdict':
      return { why: explainVerdict(event), term: 'task-verdict' };
    case 'terminate':
      return explainTerminate(event);
    case 'mechanism_decision':
      return { why: `${event.mechanism} (${event.hook}): ${event.why}`, term: 'mechanism-port' };
    default:
      return checkNever(event);
  }
}

/**
 * A retry policy row with terms of its own (a budget smaller than the call's, or its own
 * backoff), named after the decision: a preset's rows share their account's, so nothing is added.
 */
function ownRowWords(e: EventOf<'retry_scheduled'> | EventOf<'retry_declined'>): string {
  const row = e.policy_row;
  if (!row || (row.budget >= e.max_attempts - 1 && row.backoff_source !== 'row')) return '';
  const source = row.backoff_source === 'row' ? ', its own backoff' : '';
  return ` Policy row ${row.row}: ${row.used} of its ${row.budget} ${row.budget === 1 ? 'retry' : 'retries'} used, ${row.left} left${source}.`;
}

function explainRetry(e: EventOf<'retry_scheduled'>): Explanation {
  const who =
    e.account === 'background' ? 'background call, ' : e.account === 'context' ? 'context recovery, ' : '';
  const step = `${who}attempt ${e.next_attempt} of ${Math.max(e.next_attempt, e.max_attempts)}`;
  const rung =
    e.rung === 'degrade'
      ? ' Degrade: the busy model kept refusing, so the call now retries on the fallback model.'
      : e.rung === 'surface'
        ? ' Surface: the error is shown to the user.'
        : '';
  const also: GlossaryId[] = [
    e.rung === 'silent_retry' ? 'silent-retry' : e.rung === 'degrade' ? 'degrade' : 'surface',
  ];
  if (e.account === 'background') also.push('background-account');
  if (e.backoff_mode === 'fixed') {
    return {
      why: `${cap(step)} ${e.wait_ms === 0 ? 'at once' : `after ${formatMs(e.wait_ms)}`}: ${e.reason}.${rung}`,
      term: 'fixed-backoff',
      also,
    };
  }
  if (e.wait_ms === 0 && e.computed_delay_ms === 0) {
    return { why: `${cap(step)} at once: ${e.reason}.${rung}`, term: 'empty', also };
  }
  const after = e.retry_after_ms;
  if (after !== undefined) {
    if (e.wait_ms === after) {
      return {
        why: `${cap(step)} after ${formatMs(e.wait_ms)}: the server asked for it (Retry-After honoured instead of the ${formatMs(e.computed_delay_ms)} backoff).${rung}`,
        term: 'retry-after',
        also,
      };
    }
    if (e.wait_ms < after && e.wait_ms !== e.computed_delay_ms) {
      return {
        why: `${cap(step)} after ${formatMs(e.wait_ms)}: the server asked for ${formatMs(after)}, capped at ${formatMs(e.wait_ms)}.${rung}`,
        term: 'retry-after',
        also,
      };
    }
    return {
      why: `${cap(step)} after the ${formatMs(e.wait_ms)} backoff: the server's Retry-After of ${formatMs(after)} is not honoured by this configuration.${rung}`,
      term: 'backoff',
      also: [...also, 'retry-after'],
    };
  }
  return {
    why: `${cap(step)} after ${formatMs(e.wait_ms)}: backoff (${errorCause(undefined, e.category)}), growing with each retry and jittered so clients do not retry in step${e.backoff ? ` (${e.backoff.formula})` : ''}.${rung}`,
    term: 'backoff',
    also: [...also, 'jitter'],
  };
}

/**
 * What the classifier decided about a failure: its category and whether that kind is
 * retryable. What the call then did is the next decision's own event, never said here.
 */
function explainError(e: EventOf<'model_error'>): Explanation {
  const cause = errorCause({ status: e.status, category: e.category });
  const after = e.partial ? ', after content had arrived' : '';
  if (e.category === 'context_length')
    return {
      why: `${cap(cause)} on attempt ${e.attempt} (rule ${e.rule}): the request is over the model's window${after}.`,
      term: 'overflow-waterfall',
    };
  if (!e.retryable)
    return {
      why: `${cap(cause)} on attempt ${e.attempt} (rule ${e.rule}): classified not retryable — the same request would fail the same way.`,
      term: 'whitelist-retry',
      also: ['error-category'],
    };
  return {
    why: `${cap(cause)} on attempt ${e.attempt} (rule ${e.rule}): classified as a retryable kind${after}.`,
    term: 'error-category',
    also: ['whitelist-retry'],
  };
}

const DECLINED_TERM: Record<EventOf<'retry_declined'>['rule'], GlossaryId> = {
  partial_kept: 'partial',
  retry_off: 'retry-budget',
  not_retryable: 'whitelist-retry',
  category_not_retried: 'whitelist-retry',
  budget_spent: 'retry-budget',
  stream_error_cap: 'stream-error-cap',
};

function explainVerdict(e: EventOf<'task_verdict'>): string {
  const copies =
    e.tests_run === 'shipped'
      ? ' (its tests as the scenario shipped them)'
      : e.tests_run === 'workspace'
        ? " (the workspace's own copies of its tests)"
        : '';
  const edited =
    e.tests_edited && e.tests_edited.length > 0
      ? ` The model edited ${e.tests_edited.join(', ')}${e.tests_run === 'shipped' ? ', which the verdict did not run' : ', and the verdict ran those edited copies'}.`
      : '';
  // The task's checks on the final answer (task.json's scorers), each with the reason its scorer wrote.
  const scorers = e.scorers ?? [];
  const onAnswer = scorers.filter(
    (s) => s.kind !== 'visible_tests' && s.kind !== 'hidden_tests' && s.kind !== 'mechanism',
  );
  // A mechanism's own check on the run (its port's judge), with the reason it wrote.
  const own = scorers.filter((s) => s.kind === 'mechanism');
  const testsPassed =
    scorers.length > 0 && scorers.every((s) => onAnswer.includes(s) || own.includes(s) || s.passed === true);
  const ownFailed = own.some((s) => s.passed === false);
  const said =
    e.verdict === 'done'
      ? `The scenario's check (${e.check})${copies} passed on the final workspace: the task is done.`
      : e.verdict === 'not_done' && testsPassed && ownFailed
        ? `The scenario's check (${e.check})${copies} passed on the final workspace, but a mechanism's check on the run failed: the task is not done, however the loop ended.`
        : e.verdict === 'not_done' && testsPassed
          ? `The scenario's check (${e.check})${copies} passed on the final workspace, but a check on the final answer failed: the task is not done, however the loop ended.`
          : e.verdict === 'not_done'
            ? `The scenario's check (${e.check})${copies} failed on the final workspace: the task is not done, however the loop ended.`
            : `The scenario's check (${e.check}) gave no answer: ${e.detail}`;
  const answers =
    onAnswer.length > 0
      ? ` Checks on the final answer: ${onAnswer
          .map(
            (s) =>
              `${s.id} ${s.passed === true ? 'passed' : s.passed === false ? 'failed' : 'gave no answer'} (${s.reason})`,
          )
          .join('; ')}.`
      : '';
  const words = verdictTestsWords(e);
  const missing = words.missing ? ` The verdict requires every shipped test by name; ${words.missing}.` : '';
  const hidden = words.hidden
    ? ` It also ran ${e.hidden_tests} hidden tests, inputs the model never saw, against the final code — ${words.hidden}.`
    : '';
  const checks =
    own.length > 0
      ? ` Checks on the run: ${own.map((s) => `${s.id} ${s.passed === true ? 'passed' : s.passed === false ? 'failed' : 'gave no answer'} (${s.reason})`).join('; ')}.`
      : '';
  return `${said}${edited}${missing}${hidden}${answers}${checks}`;
}

const TERMINATE_TERM: Partial<Record<TerminateReason, GlossaryId>> = {
  retries_exhausted: 'retry-budget',
  model_error: 'whitelist-retry',
  tool_halt: 'halt',
  max_tokens: 'continuation',
  partial_response: 'partial',
  context_overflow: 'overflow-waterfall',
  max_iterations: 'run-budgets',
  cost_budget: 'run-budgets',
  run_time_budget: 'run-budgets',
  attempt_budget: 'run-budgets',
};

function explainTerminate(e: EventOf<'terminate'>): Explanation {
  return {
    why: `${cap(terminateText(e))}.`,
    term: TERMINATE_TERM[e.reason] ?? 'terminate',
    also: ['terminate', 'task-verdict'],
  };
}

/**
 * The explained events of a selection, one entry per step: keepalives are coalesced events
 * whose `count` is the running total on their request, so only the last one of each request
 * is kept (it carries the total; the earlier ones only repeat it with smaller numbers).
 */
export function explainedSteps(events: readonly RunEvent[]): ExplainedEvent[] {
  const lastKeepalive = new Map<number, number>();
  for (const e of events) if (e.event === 'keepalive') lastKeepalive.set(e.request_no, e.seq);
  return events.filter(
    (e): e is ExplainedEvent =>
      isExplained(e) && (e.event !== 'keepalive' || lastKeepalive.get(e.request_no) === e.seq),
  );
}
