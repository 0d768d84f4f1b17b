import type { OutputPlan } from '../output-plan';
import type { BodyFrame } from '../paced-body';
import type { ResponsePacing } from '../pacing';
import { sealReasoning } from './encrypted-reasoning';

export interface ResponsesOutputInput {
  id: string;
  createdAt: number;
  model: string;
  plan: OutputPlan;
  promptTokens: number;
  /** The part of the prompt read from the vendor's automatic prefix cache (`input_tokens_details.cached_tokens`). */
  cachedTokens: number;
  /** One id per output item, in plan order (rs_, msg_, fc_), and one call_ id per function call. */
  itemIds: string[];
  callIds: string[];
  includeEncrypted: boolean;
  summary: boolean;
  /** The text is a refusal: a `refusal` content part instead of `output_text`. */
  refusal?: boolean;
  maxOutputTokens: number | null;
  previousResponseId: string | null;
  store: boolean;
  instructions: string | null;
  tools: Record<string, unknown>[];
  pacing: ResponsePacing;
  sealingKey?: string;
}

/** The output items of a finished response, as `response.completed` and the store hold them. */
export function outputItems(input: ResponsesOutputInput): Record<string, unknown>[] {
  let call = 0;
  return input.plan.blocks.map((block, k) => {
    const id = input.itemIds[k]!;
    switch (block.kind) {
      case 'thinking':
        return {
          id,
          type: 'reasoning',
          summary: input.summary ? [{ type: 'summary_text', text: block.text }] : [],
          ...(input.includeEncrypted
            ? {
                encrypted_content: sealReasoning({
                  model: input.model,
                  itemId: id,
                  ...(input.sealingKey ? { key: input.sealingKey } : {}),
                }),
              }
            : {}),
        };
      case 'text':
        return {
          id,
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [textPart(input, block.text)],
        };
      case 'tool_call':
        return {
          id,
          type: 'function_call',
          status: 'completed',
          arguments: block.text,
          call_id: input.callIds[call++]!,
          name: block.name,
        };
    }
  });
}

/** A message's content part: the model's text, or its refusal. */
function textPart(input: ResponsesOutputInput, text: string): Record<string, unknown> {
  return input.refusal
    ? { type: 'refusal', refusal: text }
    : { type: 'output_text', text, annotations: [], logprobs: [] };
}

function usage(input: ResponsesOutputInput): Record<string, unknown> {
  const thinking = input.plan.blocks.find((b) => b.kind === 'thinking');
  const reasoning = thinking ? thinking.chunks.reduce((n, c) => n + c.tokens, 0) : 0;
  return {
    input_tokens: input.promptTokens,
    input_tokens_details: { cached_tokens: input.cachedTokens },
    output_tokens: input.plan.outputTokens,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input.promptTokens + input.plan.outputTokens,
  };
}

/** The response object as the lifecycle events carry it. */
function responseObject(
  input: ResponsesOutputInput,
  state: 'in_progress' | 'completed' | 'incomplete',
): Record<string, unknown> {
  const done = state !== 'in_progress';
  return {
    id: input.id,
    object: 'response',
    created_at: input.createdAt,
    status: state,
    background: false,
    error: null,
    incomplete_details: state === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: input.instructions,
    max_output_tokens: input.maxOutputTokens,
    model: input.model,
    output: done ? outputItems(input) : [],
    parallel_tool_calls: true,
    previous_response_id: input.previousResponseId,
    reasoning: { effort: 'medium', summary: input.summary ? 'auto' : null },
    store: input.store,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: input.tools,
    top_p: 1,
    truncation: 'disabled',
    usage: done ? usage(input) : null,
    metadata: {},
  };
}

/**
 * The named SSE events of a streamed response, paced: `response.created`, each output item
 * added, its deltas (reasoning summary, output text, function call arguments) and done, then
 * `response.completed` (or `response.incomplete` when the output cap cut it). Every event
 * carries its `sequence_number`.
 */
export function* responsesStreamFrames(input: ResponsesOutputInput): Generator<BodyFrame> {
  const { plan, pacing } = input;
  let sequence = 0;
  const record = (type: string, fields: Record<string, unknown>): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`;
  const items = outputItems(input);

  yield {
    delayMs: 0,
    text:
      record('response.created', { response: responseObject(input, 'in_progress') }) +
      record('response.in_progress', { response: responseObject(input, 'in_progress') }),
  };
  let first = true;
  for (const [k, block] of plan.blocks.entries()) {
    const item = items[k]!;
    const itemId = String(item.id);
    const wait = (tokens: number): number => {
      const ms = (first ? pacing.firstTokenMs : 0) + pacing.forTokens(tokens);
      first = false;
      return ms;
    };
    switch (block.kind) {
      case 'thinking': {
        yield {
          delayMs: 0,
          text: record('response.output_item.added', {
            output_index: k,
            item: { id: itemId, type: 'reasoning', summary: [] },
          }),
        };
        if (input.summary) {
          yield {
            delayMs: 0,
            text: record('response.reasoning_summary_part.added', {
              item_id: itemId,
              output_index: k,
              summary_index: 0,
              part: { type: 'summary_text', text: '' },
            }),
          };
          for (const piece of block.chunks) {
            yield {
              delayMs: wait(piece.tokens),
              text: record('response.reasoning_summary_text.delta', {
                item_id: itemId,
                output_index: k,
                summary_index: 0,
                delta: piece.text,
              }),
            };
          }
          yield {
            delayMs: 0,
            text: record('response.reasoning_summary_text.done', {
              item_id: itemId,
              output_index: k,
              summary_index: 0,
              text: block.text,
            }),
          };
          yield {
            delayMs: 0,
            text: record('response.reasoning_summary_part.done', {
              item_id: itemId,
              output_index: k,
              summary_index: 0,
              part: { type: 'summary_text', text: block.text },
            }),
          };
        } else {
          // Reasoning the client sees nothing of still takes its time.
          yield { delayMs: wait(block.chunks.reduce((n, c) => n + c.tokens, 0)), text: '' };
        }
        break;
      }
      case 'text': {
        yield {
          delayMs: 0,
          text: record('response.output_item.added', {
            output_index: k,
            item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
          }),
        };
        yield {
          delayMs: 0,
          text: record('response.content_part.added', {
            item_id: itemId,
            output_index: k,
            content_index: 0,
            part: textPart(input, ''),
          }),
        };
        for (const piece of block.chunks) {
          yield {
            delayMs: wait(piece.tokens),
            text: record(input.refusal ? 'response.refusal.delta' : 'response.output_text.delta', {
              item_id: itemId,
              output_index: k,
              content_index: 0,
              delta: piece.text,
              ...(input.refusal ? {} : { logprobs: [] }),
            }),
          };
        }
        yield {
          delayMs: 0,
          text: record(
            input.refusal ? 'response.refusal.done' : 'response.output_text.done',
            input.refusal
              ? { item_id: itemId, output_index: k, content_index: 0, refusal: block.text }
              : { item_id: itemId, output_index: k, content_index: 0, text: block.text, logprobs: [] },
          ),
        };
        yield {
          delayMs: 0,
          text: record('response.content_part.done', {
            item_id: itemId,
            output_index: k,
            content_index: 0,
            part: textPart(input, block.text),
          }),
        };
        break;
      }
      case 'tool_call': {
        const [opening, ...rest] = block.chunks;
        yield {
          delayMs: wait(opening?.tokens ?? 0),
          text: record('response.output_item.added', {
            output_index: k,
            item: { ...item, status: 'in_progress', arguments: '' },
          }),
        };
        for (const piece of rest) {
          yield {
            delayMs: pacing.forTokens(piece.tokens),
            text: record('response.function_call_arguments.delta', {
              item_id: itemId,
              output_index: k,
              delta: piece.text,
            }),
          };
        }
        yield {
          delayMs: 0,
          text: record('response.function_call_arguments.done', {
            item_id: itemId,
            output_index: k,
            arguments: block.text,
          }),
        };
        break;
      }
    }
    yield { delayMs: 0, text: record('response.output_item.done', { output_index: k, item }) };
  }
  const state = plan.cut ? 'incomplete' : 'completed';
  yield { delayMs: 0, text: record(`response.${state}`, { response: responseObject(input, state) }) };
}
