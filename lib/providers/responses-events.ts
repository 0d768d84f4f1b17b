import type OpenAI from 'openai';
import type { StopReason } from '@/lib/protocol';
import type { EventTranslator } from './translate-stream';
import type { StreamPart } from './types';

type Event = OpenAI.Responses.ResponseStreamEvent;

/** What a finished response said, for the chain of stored responses (responses-chain.ts). */
export interface CompletedResponse {
  id: string;
  texts: string[];
  calls: { id: string; argsText: string }[];
}

/**
 * Responses API events → stream parts. Each output item is a block at its `output_index`:
 * reasoning summaries stream as thinking and the item's `encrypted_content` becomes its
 * signature (with the item id it is sealed to); output text as text; function calls as tool
 * calls. `response.completed` carries usage and — from the output — the stop reason;
 * `response.incomplete` is a cut at the output cap (or a content filter).
 */
export function createResponsesTranslator(
  options: { onCompleted?: (response: CompletedResponse) => void } = {},
): EventTranslator<Event> {
  let finish: StreamPart | undefined;
  // The model sent a refusal content part instead of an answer.
  let refused = false;
  return {
    push(event) {
      switch (event.type) {
        case 'response.created':
          return [{ type: 'response-start', id: event.response.id, model: event.response.model }];
        case 'response.reasoning_summary_text.delta':
          return event.delta === ''
            ? []
            : [{ type: 'thinking-delta', index: event.output_index, text: event.delta }];
        case 'response.refusal.delta':
          refused = true;
          return event.delta === ''
            ? []
            : [{ type: 'text-delta', index: event.output_index, text: event.delta }];
        case 'response.output_text.delta':
          return event.delta === ''
            ? []
            : [{ type: 'text-delta', index: event.output_index, text: event.delta }];
        case 'response.output_item.added':
          if (event.item.type === 'function_call')
            return [
              {
                type: 'tool-call-start',
                index: event.output_index,
                id: event.item.call_id,
                name: event.item.name,
              },
            ];
          return [];
        case 'response.function_call_arguments.delta':
          return event.delta === ''
            ? []
            : [{ type: 'tool-call-delta', index: event.output_index, argsText: event.delta }];
        case 'response.output_item.done': {
          const { item } = event;
          if (item.type === 'reasoning' && typeof item.encrypted_content === 'string') {
            return [
              {
                type: 'thinking-signature',
                index: event.output_index,
                signature: item.encrypted_content,
                itemId: item.id,
              },
              { type: 'block-stop', index: event.output_index },
            ];
          }
          return [{ type: 'block-stop', index: event.output_index }];
        }
        case 'response.completed':
        case 'response.incomplete': {
          const { response } = event;
          const calls = response.output.flatMap((item) =>
            item.type === 'function_call' ? [{ id: item.call_id, argsText: item.arguments }] : [],
          );
          const parts: StreamPart[] = [];
          if (response.usage) {
            // OpenAI's automatic prefix cache: what the prompt read from it (it reports no writes).
            const read = response.usage.input_tokens_details?.cached_tokens;
            parts.push({
              type: 'usage',
              inputTokens: response.usage.input_tokens,
              outputTokens: response.usage.output_tokens,
              ...(read != null ? { cachedInput: { read, written: 0 } } : {}),
            });
          }
          let stopReason: StopReason;
          let vendor: string;
          if (event.type === 'response.incomplete') {
            vendor = `incomplete: ${response.incomplete_details?.reason ?? 'unknown'}`;
            stopReason =
              response.incomplete_details?.reason === 'max_output_tokens'
                ? 'max_tokens'
                : response.incomplete_details?.reason === 'content_filter'
                  ? 'refusal'
                  : 'incomplete';
          } else {
            vendor = calls.length > 0 ? 'completed (function_call)' : 'completed';
            stopReason = calls.length > 0 ? 'tool_use' : refused ? 'refusal' : 'end_turn';
            const texts = response.output.flatMap((item) =>
              item.type === 'message'
                ? item.content.flatMap((c) => (c.type === 'output_text' ? [c.text] : []))
                : [],
            );
            options.onCompleted?.({ id: response.id, texts, calls });
          }
          finish = { type: 'finish', stopReason, vendorStopReason: vendor };
          return parts;
        }
        case 'response.failed': {
          // The response ended failed mid-stream: its error {code, message} goes to the classifier as the vendor's.
          const error = event.response.error;
          throw new ResponseFailedError(
            error?.code ?? 'server_error',
            error?.message ?? 'The response failed.',
            event.response.id,
          );
        }
        default:
          return [];
      }
    },
    end() {
      return finish ? [finish] : [];
    },
  };
}

/**
 * A Responses stream that ended with `response.failed`: the response's own error, carried as an
 * SDK error carries a vendor body (`error` {code, message}), so the one classifier reads its code
 * (rate_limit_exceeded, server_error, invalid_prompt, …) as it reads any vendor's.
 */
export class ResponseFailedError extends Error {
  override readonly name = 'ResponseFailedError';
  readonly error: { code: string; message: string };
  constructor(
    code: string,
    message: string,
    readonly responseId: string,
  ) {
    super(message);
    this.error = { code, message };
  }
}
