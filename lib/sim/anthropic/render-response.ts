import type { OutputPlan } from '../output-plan';
import type { BodyFrame } from '../paced-body';
import type { ResponsePacing } from '../pacing';
import type { CacheUsage } from '../prompt-cache';

/** Everything decided about one response before its bytes are written. */
export interface AnthropicResponseInput {
  id: string;
  model: string;
  plan: OutputPlan;
  /** The prompt's input: what the cache served, what was written to it, and the rest (`input_tokens`). */
  cache: CacheUsage;
  stopReason: 'end_turn' | 'tool_use' | 'max_tokens' | 'model_context_window_exceeded' | 'refusal';
  /** One toolu_ id per tool_call block, in order. */
  toolIds: string[];
  /** One signature per thinking block, in order. */
  signatures: string[];
  pacing: ResponsePacing;
}

function record(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * A content delta, the record a response is mostly made of, written around its one string:
 * the same bytes as `record('content_block_delta', { type, index, delta: { type, [field]: text } })`
 * (tested), without building and serializing two objects per chunk.
 */
const DELTA_HEAD = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":';
const DELTA_FIELD = {
  thinking: '{"type":"thinking_delta","thinking":',
  text: '{"type":"text_delta","text":',
  tool_call: '{"type":"input_json_delta","partial_json":',
} as const;

/** Recorded traffic serializes ping with a space after the colon; the other events are compact. */
const PING = 'event: ping\ndata: {"type": "ping"}\n\n';

/** Anthropic's usage: `input_tokens` counts only the input after the last cached or written prefix. */
function usage(cache: CacheUsage, outputTokens: number): Record<string, number> {
  return {
    input_tokens: cache.uncached,
    cache_creation_input_tokens: cache.written,
    cache_read_input_tokens: cache.read,
    output_tokens: outputTokens,
  };
}

/** The SSE records of a streamed Message, each with its pacing delay. */
export function* anthropicStreamFrames(input: AnthropicResponseInput): Generator<BodyFrame> {
  const { plan, pacing } = input;
  yield {
    delayMs: 0,
    text: record('message_start', {
      type: 'message_start',
      message: {
        id: input.id,
        type: 'message',
        role: 'assistant',
        model: input.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usage(input.cache, 1),
      },
    }),
  };
  let toolIndex = 0;
  let thinkingIndex = 0;
  for (const [index, block] of plan.blocks.entries()) {
    const firstDelay = index === 0 ? pacing.firstTokenMs : 0;
    const skeleton =
      block.kind === 'thinking'
        ? { type: 'thinking', thinking: '', signature: '' }
        : block.kind === 'text'
          ? { type: 'text', text: '' }
          : { type: 'tool_use', id: input.toolIds[toolIndex++], name: block.name, input: {} };
    yield {
      delayMs: firstDelay,
      text: record('content_block_start', { type: 'content_block_start', index, content_block: skeleton }),
    };
    if (index === 0) yield { delayMs: 0, text: PING };
    const opening = `${DELTA_HEAD}${index},"delta":${DELTA_FIELD[block.kind]}`;
    for (const chunk of block.chunks) {
      yield {
        delayMs: pacing.forTokens(chunk.tokens),
        text: `${opening}${JSON.stringify(chunk.text)}}}\n\n`,
      };
    }
    if (block.kind === 'thinking') {
      const signature = input.signatures[thinkingIndex++];
      yield {
        delayMs: 0,
        text: record('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'signature_delta', signature },
        }),
      };
    }
    yield { delayMs: 0, text: record('content_block_stop', { type: 'content_block_stop', index }) };
  }
  if (plan.blocks.length === 0) yield { delayMs: pacing.firstTokenMs, text: PING };
  yield {
    delayMs: 0,
    text: record('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: input.stopReason, stop_sequence: null },
      usage: usage(input.cache, Math.max(1, plan.outputTokens)),
    }),
  };
  yield { delayMs: 0, text: record('message_stop', { type: 'message_stop' }) };
}

function parseInput(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** The same response as one JSON Message (`stream: false`). */
export function anthropicMessageBody(input: AnthropicResponseInput): string {
  let toolIndex = 0;
  let thinkingIndex = 0;
  const content = input.plan.blocks.map((block) => {
    if (block.kind === 'thinking')
      return { type: 'thinking', thinking: block.text, signature: input.signatures[thinkingIndex++] };
    if (block.kind === 'text') return { type: 'text', text: block.text };
    return {
      type: 'tool_use',
      id: input.toolIds[toolIndex++],
      name: block.name,
      input: parseInput(block.text),
    };
  });
  return JSON.stringify({
    id: input.id,
    type: 'message',
    role: 'assistant',
    model: input.model,
    content,
    stop_reason: input.stopReason,
    stop_sequence: null,
    usage: usage(input.cache, Math.max(1, input.plan.outputTokens)),
  });
}

/** Run time the whole response takes to generate (a non-streamed reply waits it out first). */
export function totalGenerationMs(input: AnthropicResponseInput): number {
  return input.pacing.firstTokenMs + input.pacing.forTokens(input.plan.outputTokens);
}
