import type { EventOf, Message, RunEvent } from '@/lib/protocol';
import { categoryLabel } from '@/lib/protocol/category-label';
import { formatMs } from '@/lib/protocol/format-duration';
import { verdictTestsLabels } from '@/lib/protocol/verdict-words';
import { isModuleEvent, moduleWords } from '@/lib/mechanisms/modules/about';
import type { RunStep } from './run-steps';

/** What one event is as a step, before the reader adds its seq, the background flag and the key. */
export interface DescribedStep {
  turn: number | null;
  kind: RunStep['kind'];
  /** The step's canonical content (made a key by the reader). */
  content: unknown;
  label: string;
}

const step = (
  turn: number | null,
  kind: RunStep['kind'],
  content: unknown,
  label: string,
): DescribedStep => ({
  turn,
  kind,
  content,
  label,
});

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

/**
 * A model call and its recovery: the request, the response or error, retries, the watchdog,
 * fallbacks and swaps, the output cap, the SDK's own retries, a replay leaving its recording.
 */
function callStep(
  e: EventOf<
    | 'model_request'
    | 'llm_call'
    | 'model_error'
    | 'retry_scheduled'
    | 'retry_declined'
    | 'watchdog_fired'
    | 'fallback'
    | 'model_cooldown'
    | 'swap'
    | 'output_recovery'
    | 'sdk_retry'
    | 'off_recording'
  >,
  at: number,
): DescribedStep {
  switch (e.event) {
    case 'model_request':
      return step(
        at,
        'request',
        [e.vendor, e.model, e.attempt, e.message_count, e.input_tokens_est, e.max_tokens, e.body ?? null],
        `${e.background ? 'background request' : 'request'} to ${e.vendor} ${e.model}, attempt ${e.attempt} (${e.message_count} messages, ~${e.input_tokens_est} tokens in)`,
      );
    case 'llm_call':
      return step(
        at,
        'response',
        [
          e.stop_reason,
          e.partial === true,
          e.input_tokens,
          e.output_tokens,
          e.cache_read_tokens ?? 0,
          e.cache_write_tokens ?? 0,
          messageContent(e.message),
        ],
        `${e.background ? `${e.purpose ?? 'background'} call` : 'response'}: ${e.stop_reason}${e.partial ? ' (partial)' : ''}, ${e.output_tokens} tokens out${cachedWords(e)}${describeMessage(e.message)}`,
      );
    case 'model_error':
      return step(
        at,
        'error',
        [e.category, e.status ?? null, e.vendor_type ?? null, e.retryable, e.partial],
        `error: ${e.status ? `${e.status} ` : ''}${categoryLabel(e.category)}${e.partial ? ' after partial content' : ''}${e.retryable ? '' : ' (not retryable)'}`,
      );
    case 'retry_scheduled':
      return step(
        at,
        'retry',
        [e.next_attempt, e.max_attempts, e.category, e.rung, e.wait_ms, e.account ?? null],
        `retry ${e.next_attempt - 1} of ${e.max_attempts - 1} (${e.rung.replace('_', ' ')}) after ${categoryLabel(e.category)}, waits ${formatMs(e.wait_ms)}`,
      );
    case 'retry_declined':
      return step(
        at,
        'recovery',
        ['declined', e.rule, e.next, e.account],
        `no retry (${e.rule.replace(/_/g, ' ')}): ${e.next.replace(/_/g, ' ')}`,
      );
    case 'watchdog_fired':
      return step(
        at,
        'recovery',
        ['watchdog', e.window_ms, e.outcome],
        `watchdog fired after ${formatMs(e.window_ms)} of silence (${e.outcome === 'empty' ? 'Empty' : 'Partial'})`,
      );
    case 'fallback':
      return step(
        at,
        'recovery',
        ['fallback', e.from_model, e.to_model],
        `fallback from ${e.from_model} to ${e.to_model}`,
      );
    case 'model_cooldown':
      return step(at, 'recovery', ['cooldown', e.phase, e.model], `model cooldown (${e.phase}): ${e.model}`);
    case 'swap':
      // Where the run went, not why: a re-run makes a swap made by hand as a scheduled one.
      return step(
        at,
        'recovery',
        ['swap', e.to_vendor, e.to_model],
        `swap to ${e.to_vendor} ${e.to_model} (${e.cause})`,
      );
    case 'output_recovery':
      return step(
        at,
        'recovery',
        ['output', e.action, e.max_tokens, e.next_max_tokens ?? null, e.kept],
        `output cap: ${e.action.replace('_', ' ')} (${e.stop_reason})`,
      );
    case 'sdk_retry':
      return step(
        at,
        'recovery',
        ['sdk_retry', e.retry, e.after_status ?? null],
        `SDK retry ${e.retry} of ${e.max_retries} after ${e.after_status !== undefined ? `HTTP ${e.after_status}` : 'a connection error'}`,
      );
    case 'off_recording':
      return step(
        at,
        'replay',
        [e.request_no, e.next],
        `off the recording at request ${e.request_no}: ${e.differs}`,
      );
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

/** What a message said: text and tool calls (thinking signatures are vendor credentials, not content). */
function messageContent(message: Message | undefined): unknown {
  if (!message) return null;
  return message.parts.map((part) => {
    switch (part.type) {
      case 'text':
        return ['text', part.text];
      case 'thinking':
        return ['thinking', part.text];
      case 'tool_call':
        return ['tool_call', part.name, part.argsText];
      default:
        return [part.type];
    }
  });
}

function describeMessage(message: Message | undefined): string {
  if (!message) return '';
  const calls = message.parts
    .filter((p) => p.type === 'tool_call')
    .map((p) => (p.type === 'tool_call' ? p.name : ''));
  const text = message.parts
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('')
    .trim();
  const parts: string[] = [];
  if (text) parts.push(`“${text.length > 60 ? `${text.slice(0, 57)}…` : text}”`);
  if (calls.length > 0) parts.push(`calls ${calls.join(', ')}`);
  return parts.length > 0 ? ` — ${parts.join('; ')}` : '';
}

function shortArgs(args: unknown): string {
  if (args === undefined || args === null) return '';
  const text = typeof args === 'string' ? args : JSON.stringify(args);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** The cached input a vendor reported for a response, in words (nothing when it reported none). */
function cachedWords(e: { cache_read_tokens?: number; cache_write_tokens?: number }): string {
  const read = e.cache_read_tokens ?? 0;
  const written = e.cache_write_tokens ?? 0;
  if (read === 0 && written === 0) return '';
  return `, ${read} tokens in read from the prompt cache, ${written} written to it`;
}

/** The verdict's counts beside it on the comparison line: shipped tests that did not run, hidden tests that failed. */
function verdictTests(e: EventOf<'task_verdict'>): string {
  return verdictTestsLabels(e)
    .map((label) => `; ${label}`)
    .join('');
}
