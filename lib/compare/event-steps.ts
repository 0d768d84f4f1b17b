import type { EventOf, RunEvent } from '@/lib/protocol';
import { verdictTestsLabels } from '@/lib/protocol/verdict-words';
import { isModuleEvent, moduleWords } from '@/lib/mechanisms/modules/about';
import { callStep } from './call-step';
import { step, type DescribedStep } from './described-step';

export type { DescribedStep } from './described-step';

/**
 * The step an event is, or null for an event with no behaviour of its own. `at` is the event's
 * turn, or the last turn before it; `turn` its own (null when it has none).
 */
export function describeStep(e: RunEvent, at: number, turn: number | null): DescribedStep | null {
  if (isModuleEvent(e)) {
    // A mechanism module's step, in its own words (lib/mechanisms/<name>/about.ts).
    const { kind, key, label } = moduleWords(e).step(e);
    return step(at, kind, key, label);
  }
  switch (e.event) {
    case 'model_request':
    case 'llm_call':
    case 'model_error':
    case 'retry_scheduled':
    case 'retry_declined':
    case 'watchdog_fired':
    case 'fallback':
    case 'model_cooldown':
    case 'swap':
    case 'output_recovery':
    case 'sdk_retry':
    case 'off_recording':
      return callStep(e, at);
    case 'compaction':
    case 'context_overflow':
    case 'context_recovered':
    case 'breaker':
      return contextStep(e, at, turn);
    case 'tool_call':
    case 'tool_guard':
    case 'arg_repair':
      return toolStep(e, at);
    case 'tool_approval':
      // A person's decision changes what the model receives: a step of its own.
      return step(
        at,
        'control',
        ['approval', e.tool, e.decision, e.edited_args ?? null, e.message ?? null],
        `${e.tool} ${e.decision} by ${e.by}`,
      );
    case 'fork_edit':
      // A person changed the state the fork starts from: the first thing its log does differently.
      return step(
        at,
        'control',
        ['fork_edit', e.target, e.after, e.after_is_error ?? null],
        `${e.where} edited by ${e.by}`,
      );
    case 'mechanism_decision':
      return step(
        at,
        'recovery',
        ['decision', e.mechanism, e.hook, e.decision, e.next],
        `${e.mechanism}: ${e.decision.replace(/_/g, ' ')} (${e.next.replace(/_/g, ' ')})`,
      );
    case 'fault_injected':
    case 'control':
    case 'task_verdict':
    case 'terminate':
      return runEndStep(e, at);
    case 'iteration_start':
    case 'run_start':
    case 'stream_open':
    case 'content_delta':
    case 'watchdog_armed':
    case 'takeover_report':
    case 'takeover_outcome':
    case 'forked_from':
    case 'tool_start':
    case 'context_sent':
    case 'run_title':
    case 'log':
    case 'storage_error':
    case 'keepalive':
    case 'paused':
    case 'resumed':
    case 'resumed_after_restart':
      // No behaviour of their own: the request body, the response and the steps above carry it.
      return null;
    default: {
      const never: never = e;
      void never;
      return null;
    }
  }
}

/** The context: compaction, overflow and recovery, the summary breaker. */
function contextStep(
  e: EventOf<'compaction' | 'context_overflow' | 'context_recovered' | 'breaker'>,
  at: number,
  turn: number | null,
): DescribedStep {
  switch (e.event) {
    case 'compaction':
      return step(
        at,
        'recovery',
        [
          'compaction',
          e.step,
          e.trigger,
          e.ok,
          e.messages_before,
          e.messages_after,
          e.stubbed.map((s) => s.call_id),
        ],
        `compaction: ${e.step.replace('_', ' ')} (${e.trigger})${e.ok ? '' : ' failed'}, ${e.messages_before} → ${e.messages_after} messages`,
      );
    case 'context_overflow':
      return step(
        at,
        'recovery',
        ['overflow', e.source, e.recovery_attempt, e.outcome],
        `context overflow (${e.source.replace('_', ' ')}), ${e.outcome}`,
      );
    case 'context_recovered':
      return step(
        at,
        'recovery',
        ['recovered', e.recovery_attempts],
        `context recovered after ${e.recovery_attempts} recoveries`,
      );
    case 'breaker':
      return step(
        turn,
        'recovery',
        ['breaker', e.state, e.consecutive_failures],
        `summary breaker ${e.state.replace('_', '-')}`,
      );
  }
}

/** The tools: each call, its guards, argument repairs (batches and interrupted calls are their modules' steps). */
function toolStep(e: EventOf<'tool_call' | 'tool_guard' | 'arg_repair'>, at: number): DescribedStep {
  switch (e.event) {
    case 'tool_call':
      return step(
        at,
        'tool',
        [e.tool, e.args ?? null, e.status ?? null, e.is_error, e.result ?? null, e.result_chars],
        `${e.tool}(${shortArgs(e.args)}) → ${e.status ?? (e.is_error ? 'error' : 'ok')}${e.is_error && e.status !== 'error' ? ' (error)' : ''}${e.repaired ? ' (arguments repaired)' : ''}`,
      );
    case 'tool_guard':
      return step(
        at,
        'recovery',
        ['guard', e.tool, e.kind],
        `tool guard: ${e.kind.replace('_', ' ')} on ${e.tool}`,
      );
    case 'arg_repair':
      return step(
        at,
        'recovery',
        ['repair', e.tool, e.rung, e.after],
        `argument repair (${e.rung === 'json' ? 'JSON text' : 'coerced to the schema'}) on ${e.tool}`,
      );
  }
}

/** The run as a whole: injected faults, controls, the verdict and the end. */
function runEndStep(
  e: EventOf<'fault_injected' | 'control' | 'task_verdict' | 'terminate'>,
  at: number,
): DescribedStep {
  switch (e.event) {
    case 'fault_injected':
      return step(at, 'fault', [e.rule_id, e.action], `fault injected: ${e.label}`);
    case 'control':
      return step(
        at,
        'control',
        [e.action, e.detail ?? null],
        `control: ${e.action}${e.detail ? ` (${e.detail})` : ''}`,
      );
    case 'task_verdict':
      return step(
        null,
        'end',
        ['verdict', e.verdict],
        `task verdict: ${e.verdict.replace('_', ' ')}${e.tests_edited?.length ? ` (test edited by the model: ${e.tests_edited.join(', ')})` : ''}${verdictTests(e)}`,
      );
    case 'terminate':
      return step(
        null,
        'end',
        ['terminate', e.reason, e.complete],
        `run ended: ${e.reason.replace(/_/g, ' ')}${e.complete ? '' : ' (incomplete)'}`,
      );
  }
}

function shortArgs(args: unknown): string {
  if (args === undefined || args === null) return '';
  const text = typeof args === 'string' ? args : JSON.stringify(args);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** The verdict's counts beside it on the comparison line: shipped tests that did not run, hidden tests that failed. */
function verdictTests(e: EventOf<'task_verdict'>): string {
  return verdictTestsLabels(e)
    .map((label) => `; ${label}`)
    .join('');
}
