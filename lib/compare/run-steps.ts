import type { EventOf, Message, RunEvent } from '@/lib/protocol';
import { isModuleEvent, moduleWords } from '@/lib/mechanisms/modules/about';
import { categoryLabel } from '@/lib/protocol/category-label';
import { formatMs } from '@/lib/protocol/format-duration';
import { verdictTestsLabels } from '@/lib/protocol/verdict-words';

/**
 * One step of a run that a comparison looks at: what was asked, what came back, what the
 * tools did and every recovery step, with the wall-clock details (ts, latency, ttfb, ids
 * of the stream) left out. Two runs of the same config and seed produce the same steps;
 * the first step that differs is where they diverged.
 */
export interface RunStep {
  seq: number;
  /** The turn (iteration) the step belongs to; null for the run's end (verdict, terminate). */
  turn: number | null;
  /** What kind of step, for the condensed card. */
  kind:
    'request' | 'response' | 'error' | 'retry' | 'recovery' | 'tool' | 'fault' | 'replay' | 'control' | 'end';
  /** Part of an auxiliary (background) call such as the title. */
  background: boolean;
  /** Canonical content: equal keys mean the same step. */
  key: string;
  /** One line a person can read. */
  label: string;
}

/** Reads the steps of a log in order. Events that carry no behaviour of their own are skipped. */
export function runSteps(events: readonly RunEvent[]): RunStep[] {
  const read = createStepReader();
  const steps: RunStep[] = [];
  for (const e of events) {
    const step = read(e);
    if (step) steps.push(step);
  }
  return steps;
}

/**
 * The step reader itself, fed one event at a time in log order: the step that event is, or
 * null. It keeps only what a later step depends on (the last turn, whether a background call
 * is open), so a comparison following a live run reads each event once.
 */
export function createStepReader(): (e: RunEvent) => RunStep | null {
  let background = false;
  let lastTurn = 0;
  let step: RunStep | null = null;
  const push = (e: RunEvent, turn: number | null, kind: RunStep['kind'], content: unknown, label: string) => {
    step = {
      seq: e.seq,
      turn,
      kind,
      background,
      key: `${kind}:${background ? 'bg:' : ''}${stableJson(content)}`,
      label,
    };
  };
  return (e) => {
    step = null;
    const turn = 'iteration' in e && typeof e.iteration === 'number' ? e.iteration : null;
    if (turn !== null) lastTurn = turn;
    const at = turn ?? lastTurn;
    if (isModuleEvent(e)) {
      // A mechanism module's step, in its own words (lib/mechanisms/<name>/about.ts).
      const { kind, key, label } = moduleWords(e).step(e);
      push(e, at, kind, key, label);
      return step;
    }
    switch (e.event) {
      case 'model_request':
        background = e.background;
        push(
          e,
          at,
          'request',
          [e.vendor, e.model, e.attempt, e.message_count, e.input_tokens_est, e.max_tokens, e.body ?? null],
          `${background ? 'background request' : 'request'} to ${e.vendor} ${e.model}, attempt ${e.attempt} (${e.message_count} messages, ~${e.input_tokens_est} tokens in)`,
        );
        break;
      case 'llm_call':
        background = e.background === true;
        push(
          e,
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
        background = false;
        break;
      case 'model_error':
        push(
          e,
          at,
          'error',
          [e.category, e.status ?? null, e.vendor_type ?? null, e.retryable, e.partial],
          `error: ${e.status ? `${e.status} ` : ''}${categoryLabel(e.category)}${e.partial ? ' after partial content' : ''}${e.retryable ? '' : ' (not retryable)'}`,
        );
        break;
      case 'retry_scheduled':
        push(
          e,
          at,
          'retry',
          [e.next_attempt, e.max_attempts, e.category, e.rung, e.wait_ms, e.account ?? null],
          `retry ${e.next_attempt - 1} of ${e.max_attempts - 1} (${e.rung.replace('_', ' ')}) after ${categoryLabel(e.category)}, waits ${formatMs(e.wait_ms)}`,
        );
        break;
      case 'retry_declined':
        push(
          e,
          at,
          'recovery',
          ['declined', e.rule, e.next, e.account],
          `no retry (${e.rule.replace(/_/g, ' ')}): ${e.next.replace(/_/g, ' ')}`,
        );
        break;
      case 'watchdog_fired':
        push(
          e,
          at,
          'recovery',
          ['watchdog', e.window_ms, e.outcome],
          `watchdog fired after ${formatMs(e.window_ms)} of silence (${e.outcome === 'empty' ? 'Empty' : 'Partial'})`,
        );
        break;
      case 'fallback':
        push(
          e,
          at,
          'recovery',
          ['fallback', e.from_model, e.to_model],
          `fallback from ${e.from_model} to ${e.to_model}`,
        );
        break;
      case 'swap':
        // Where the run went, not why: a re-run makes a swap made by hand as a scheduled one.
        push(
          e,
          at,
          'recovery',
          ['swap', e.to_vendor, e.to_model],
          `swap to ${e.to_vendor} ${e.to_model} (${e.cause})`,
        );
        break;
      case 'output_recovery':
        push(
          e,
          at,
          'recovery',
          ['output', e.action, e.max_tokens, e.next_max_tokens ?? null, e.kept],
          `output cap: ${e.action.replace('_', ' ')} (${e.stop_reason})`,
        );
        break;
      case 'compaction':
        push(
          e,
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
        break;
      case 'context_overflow':
        push(
          e,
          at,
          'recovery',
          ['overflow', e.source, e.recovery_attempt, e.outcome],
          `context overflow (${e.source.replace('_', ' ')}), ${e.outcome}`,
        );
        break;
      case 'context_recovered':
        push(
          e,
          at,
          'recovery',
          ['recovered', e.recovery_attempts],
          `context recovered after ${e.recovery_attempts} recoveries`,
        );
        break;
      case 'breaker':
        push(
          e,
          turn,
          'recovery',
          ['breaker', e.state, e.consecutive_failures],
          `summary breaker ${e.state.replace('_', '-')}`,
        );
        break;
      case 'tool_call':
        push(
          e,
          at,
          'tool',
          [e.tool, e.args ?? null, e.status ?? null, e.is_error, e.result ?? null, e.result_chars],
          `${e.tool}(${shortArgs(e.args)}) → ${e.status ?? (e.is_error ? 'error' : 'ok')}${e.is_error && e.status !== 'error' ? ' (error)' : ''}${e.repaired ? ' (arguments repaired)' : ''}`,
        );
        break;
      case 'tool_guard':
        push(
          e,
          at,
          'recovery',
          ['guard', e.tool, e.kind],
          `tool guard: ${e.kind.replace('_', ' ')} on ${e.tool}`,
        );
        break;
      case 'arg_repair':
        push(
          e,
          at,
          'recovery',
          ['repair', e.tool, e.rung, e.after],
          `argument repair (${e.rung === 'json' ? 'JSON text' : 'coerced to the schema'}) on ${e.tool}`,
        );
        break;
      case 'fault_injected':
        push(e, at, 'fault', [e.rule_id, e.action], `fault injected: ${e.label}`);
        break;
      case 'sdk_retry':
        push(
          e,
          at,
          'recovery',
          ['sdk_retry', e.retry, e.after_status ?? null],
          `SDK retry ${e.retry} of ${e.max_retries} after ${e.after_status !== undefined ? `HTTP ${e.after_status}` : 'a connection error'}`,
        );
        break;
      case 'off_recording':
        push(
          e,
          at,
          'replay',
          [e.request_no, e.next],
          `off the recording at request ${e.request_no}: ${e.differs}`,
        );
        break;
      case 'control':
        push(
          e,
          at,
          'control',
          [e.action, e.detail ?? null],
          `control: ${e.action}${e.detail ? ` (${e.detail})` : ''}`,
        );
        break;
      case 'task_verdict':
        background = false;
        push(
          e,
          null,
          'end',
          ['verdict', e.verdict],
          `task verdict: ${e.verdict.replace('_', ' ')}${e.tests_edited?.length ? ` (test edited by the model: ${e.tests_edited.join(', ')})` : ''}${verdictTests(e)}`,
        );
        break;
      case 'terminate':
        background = false;
        push(
          e,
          null,
          'end',
          ['terminate', e.reason, e.complete],
          `run ended: ${e.reason.replace(/_/g, ' ')}${e.complete ? '' : ' (incomplete)'}`,
        );
        break;
      case 'iteration_start':
        background = false;
        break;
      case 'mechanism_decision':
        push(
          e,
          at,
          'recovery',
          ['decision', e.mechanism, e.hook, e.decision, e.next],
          `${e.mechanism}: ${e.decision.replace(/_/g, ' ')} (${e.next.replace(/_/g, ' ')})`,
        );
        break;
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
        // No behaviour of their own: the request body, the response and the steps above carry it.
        break;
      default: {
        const never: never = e;
        void never;
      }
    }
    return step;
  };
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

/** JSON with object keys sorted, so equal content gives an equal key whatever the key order. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
      );
    }
    return v;
  });
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
