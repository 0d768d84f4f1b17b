import type { OutputPlan } from '../output-plan';
import type { BodyFrame } from '../paced-body';
import type { ResponsePacing } from '../pacing';
import type { CacheUsage } from '../prompt-cache';

export interface OpenAIResponseInput {
  id: string;
  created: number;
  model: string;
  systemFingerprint: string;
  plan: OutputPlan;
  promptTokens: number;
  /** The part of the prompt read from the vendor's automatic prefix cache (`cached_tokens`). */
  cache: CacheUsage;
  finishReason: 'stop' | 'tool_calls' | 'length';
  /** One call_ id per tool_call block, in order. */
  callIds: string[];
  includeUsage: boolean;
  pacing: ResponsePacing;
  /** The text is a refusal: sent as `refusal`, `content` left null. */
  refusal?: boolean;
}

function reasoningTokens(input: OpenAIResponseInput): number {
  const thinking = input.plan.blocks.find((b) => b.kind === 'thinking');
  return thinking ? thinking.chunks.reduce((n, c) => n + c.tokens, 0) : 0;
}

function usageBody(input: OpenAIResponseInput): Record<string, unknown> {
  const completion = input.plan.outputTokens;
  return {
    prompt_tokens: input.promptTokens,
    completion_tokens: completion,
    total_tokens: input.promptTokens + completion,
    prompt_tokens_details: { cached_tokens: input.cache.read, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoningTokens(input),
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The `data:` records of a streamed chat completion, paced. */
export function* openaiStreamFrames(input: OpenAIResponseInput): Generator<BodyFrame> {
  const { plan, pacing } = input;
  // Every chunk opens with the same fields: serialized once, then only choices (and usage)
  // per chunk. The same bytes as serializing the whole object each time (tested).
  const head = `data: ${JSON.stringify({
    id: input.id,
    object: 'chat.completion.chunk',
    created: input.created,
    model: input.model,
    service_tier: 'default',
    system_fingerprint: input.systemFingerprint,
  }).slice(0, -1)},"choices":`;
  const chunk = (choices: unknown[], usage?: unknown): string =>
    `${head}${JSON.stringify(choices)}${input.includeUsage ? `,"usage":${JSON.stringify(usage ?? null)}` : ''}}\n\n`;
  const choice = (delta: unknown, finishReason: string | null = null): unknown[] => [
    { index: 0, delta, logprobs: null, finish_reason: finishReason },
  ];

  const thinking = plan.blocks.find((b) => b.kind === 'thinking');
  const text = plan.blocks.find((b) => b.kind === 'text');
  const calls = plan.blocks.filter((b) => b.kind === 'tool_call');
  const opening = (k: number): unknown => ({
    index: k,
    id: input.callIds[k],
    type: 'function',
    function: { name: calls[k]!.name, arguments: '' },
  });

  // The first chunk carries the role; with no text it opens the first tool call as well.
  const toolFirst = !thinking && !text && calls.length > 0;
  yield {
    delayMs: pacing.firstTokenMs + (toolFirst ? pacing.forTokens(calls[0]!.chunks[0]?.tokens ?? 0) : 0),
    text: chunk(
      choice(
        toolFirst
          ? { role: 'assistant', content: null, tool_calls: [opening(0)], refusal: null }
          : { role: 'assistant', content: '', refusal: null },
      ),
    ),
  };
  // DeepSeek-style reasoning streams first, as `reasoning_content` beside `content`.
  for (const piece of thinking?.chunks ?? []) {
    yield { delayMs: pacing.forTokens(piece.tokens), text: chunk(choice({ reasoning_content: piece.text })) };
  }
  for (const piece of text?.chunks ?? []) {
    const delta = input.refusal ? { refusal: piece.text } : { content: piece.text };
    yield { delayMs: pacing.forTokens(piece.tokens), text: chunk(choice(delta)) };
  }
  for (const [k, call] of calls.entries()) {
    for (const [n, piece] of call.chunks.entries()) {
      if (n === 0) {
        if (k === 0 && toolFirst) continue;
        yield { delayMs: pacing.forTokens(piece.tokens), text: chunk(choice({ tool_calls: [opening(k)] })) };
      } else {
        yield {
          delayMs: pacing.forTokens(piece.tokens),
          text: chunk(choice({ tool_calls: [{ index: k, function: { arguments: piece.text } }] })),
        };
      }
    }
  }
  yield { delayMs: 0, text: chunk(choice({}, input.finishReason)) };
  if (input.includeUsage) yield { delayMs: 0, text: chunk([], usageBody(input)) };
  yield { delayMs: 0, text: 'data: [DONE]\n\n' };
}

/** The same response as one `chat.completion` object (`stream: false`). */
export function openaiCompletionBody(input: OpenAIResponseInput): string {
  const text = input.plan.blocks.find((b) => b.kind === 'text');
  const thinking = input.plan.blocks.find((b) => b.kind === 'thinking');
  const calls = input.plan.blocks.filter((b) => b.kind === 'tool_call');
  const message = {
    role: 'assistant',
    content: text && !input.refusal ? text.text : null,
    ...(thinking ? { reasoning_content: thinking.text } : {}),
    refusal: text && input.refusal ? text.text : null,
    annotations: [],
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((c, k) => ({
            id: input.callIds[k],
            type: 'function',
            function: { name: c.name, arguments: c.text },
          })),
        }
      : {}),
  };
  return JSON.stringify({
    id: input.id,
    object: 'chat.completion',
    created: input.created,
    model: input.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: input.finishReason }],
    usage: usageBody(input),
    service_tier: 'default',
    system_fingerprint: input.systemFingerprint,
  });
}
