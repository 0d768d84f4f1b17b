import type Anthropic from '@anthropic-ai/sdk';
import { mapAnthropicStopReason } from './stop-reasons';
import type { EventTranslator } from './translate-stream';
import type { StreamPart } from './types';

/**
 * Turns Anthropic raw stream events into stream parts. The finish is held until
 * `message_stop` (or the end of the stream) so it is always the last part, after usage.
 * `answerTool`: the request sent its answer format as this forced tool (lib/dialects/
 * response-format.ts): a call to it is the answer, read back as its text (the input's JSON as
 * streamed), and a turn whose only call it was ends as an answer does (`end_turn`).
 */
export function createAnthropicTranslator(
  options: { answerTool?: string } = {},
): EventTranslator<Anthropic.RawMessageStreamEvent> {
  let finish: StreamPart | undefined;
  // The answer tool's block positions, and whether any other tool was called.
  const answerBlocks = new Set<number>();
  let otherCalls = false;
  const takeFinish = (): StreamPart[] => {
    const parts = finish ? [finish] : [];
    finish = undefined;
    return parts;
  };

  return {
    push(event) {
      switch (event.type) {
        case 'message_start': {
          const { id, model, usage } = event.message;
          // input_tokens is only what follows the cached prefix: the prompt is all three (it fills the window all the same).
          const cachedInput = {
            read: usage.cache_read_input_tokens ?? 0,
            written: usage.cache_creation_input_tokens ?? 0,
          };
          return [
            {
              type: 'response-start',
              id,
              model,
              inputTokens: usage.input_tokens + cachedInput.read + cachedInput.written,
              cachedInput,
            },
          ];
        }
        case 'content_block_start':
          if (event.content_block.type === 'tool_use') {
            if (options.answerTool !== undefined && event.content_block.name === options.answerTool) {
              answerBlocks.add(event.index);
              return [];
            }
            otherCalls = true;
          }
          return blockStart(event);
        case 'content_block_delta':
          if (answerBlocks.has(event.index)) {
            const json = event.delta.type === 'input_json_delta' ? event.delta.partial_json : '';
            return json ? [{ type: 'text-delta', index: event.index, text: json }] : [];
          }
          return blockDelta(event);
        case 'content_block_stop':
          return [{ type: 'block-stop', index: event.index }];
        case 'message_delta': {
          const usage: StreamPart = { type: 'usage', outputTokens: event.usage.output_tokens };
          if (event.usage.input_tokens != null) {
            const cachedInput = {
              read: event.usage.cache_read_input_tokens ?? 0,
              written: event.usage.cache_creation_input_tokens ?? 0,
            };
            usage.inputTokens = event.usage.input_tokens + cachedInput.read + cachedInput.written;
            usage.cachedInput = cachedInput;
          }
          const reason = event.delta.stop_reason;
          if (reason != null) {
            const answered = reason === 'tool_use' && answerBlocks.size > 0 && !otherCalls;
            finish = {
              type: 'finish',
              stopReason: answered ? 'end_turn' : mapAnthropicStopReason({ stopReason: reason }),
              vendorStopReason: reason,
            };
          }
          return [usage];
        }
        case 'message_stop':
          return takeFinish();
        default:
          return [];
      }
    },
    end: takeFinish,
  };
}

function blockStart(event: Anthropic.RawContentBlockStartEvent): StreamPart[] {
  const { index, content_block: block } = event;
  switch (block.type) {
    case 'text':
      return block.text ? [{ type: 'text-delta', index, text: block.text }] : [];
    case 'thinking': {
      const parts: StreamPart[] = [];
      if (block.thinking) parts.push({ type: 'thinking-delta', index, text: block.thinking });
      if (block.signature) parts.push({ type: 'thinking-signature', index, signature: block.signature });
      return parts;
    }
    case 'redacted_thinking':
      return [{ type: 'redacted-thinking', index, data: block.data }];
    case 'tool_use':
      return [{ type: 'tool-call-start', index, id: block.id, name: block.name }];
    default:
      // Server tools and their results are not requested; nothing of theirs reaches the engine.
      return [];
  }
}

function blockDelta(event: Anthropic.RawContentBlockDeltaEvent): StreamPart[] {
  const { index, delta } = event;
  switch (delta.type) {
    case 'text_delta':
      return delta.text ? [{ type: 'text-delta', index, text: delta.text }] : [];
    case 'thinking_delta':
      return delta.thinking ? [{ type: 'thinking-delta', index, text: delta.thinking }] : [];
    case 'signature_delta':
      return [{ type: 'thinking-signature', index, signature: delta.signature }];
    case 'input_json_delta':
      // The first fragment is usually "": it carries nothing.
      return delta.partial_json ? [{ type: 'tool-call-delta', index, argsText: delta.partial_json }] : [];
    default:
      return [];
  }
}
