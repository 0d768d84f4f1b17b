import type { EventOf, Message } from '@/lib/protocol';
import { categoryLabel } from '@/lib/protocol/category-label';
import { formatMs } from '@/lib/protocol/format-duration';
import { step, type DescribedStep } from './described-step';

/**
 * A model call and its recovery: the request, the response or error, retries, the watchdog,
 * fallbacks and swaps, the output cap, the SDK's own retries, a replay leaving its recording.
 */
export function callStep(
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

/** The cached input a vendor reported for a response, in words (nothing when it reported none). */
function cachedWords(e: { cache_read_tokens?: number; cache_write_tokens?: number }): string {
  const read = e.cache_read_tokens ?? 0;
  const written = e.cache_write_tokens ?? 0;
  if (read === 0 && written === 0) return '';
  return `, ${read} tokens in read from the prompt cache, ${written} written to it`;
}
