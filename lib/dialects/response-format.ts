import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { RenderReport, ResponseFormat } from '@/lib/trajectory';

/**
 * The neutral `responseFormat` (the answer must match a JSON Schema) as each dialect's API takes
 * it. Anthropic has no answer format: the answer is a tool the model is made to call (the
 * answer tool alone: `tool_choice: {type: 'tool'}`; beside the run's tools: `{type: 'any'}`, so
 * every turn calls a tool and the answer is the call to this one). The adapter reads that call
 * back as the answer's text (lib/providers/anthropic-events.ts). A forced tool_choice refuses
 * extended thinking (400), so thinking is not asked for. OpenAI Chat: `response_format`
 * `{type: 'json_schema'}`; Responses: `text.format`.
 */

/** What the answer tool tells the model. */
export const ANSWER_TOOL_DESCRIPTION =
  'Give your final answer by calling this tool once, with the answer as its input. Call it only when the work is done.';

export function withAnthropicFormat(
  params: Anthropic.MessageCreateParamsStreaming,
  format: ResponseFormat | undefined,
): Anthropic.MessageCreateParamsStreaming {
  if (!format) return params;
  const tool: Anthropic.Tool = {
    name: format.name,
    description: ANSWER_TOOL_DESCRIPTION,
    input_schema: format.schema as Anthropic.Tool.InputSchema,
  };
  const others = params.tools ?? [];
  const { thinking: _dropped, ...rest } = params;
  return {
    ...rest,
    tools: [...others, tool],
    tool_choice: others.length === 0 ? { type: 'tool', name: format.name } : { type: 'any' },
  };
}

export function withChatFormat(
  params: OpenAI.ChatCompletionCreateParamsStreaming,
  format: ResponseFormat | undefined,
): OpenAI.ChatCompletionCreateParamsStreaming {
  if (!format) return params;
  return {
    ...params,
    response_format: {
      type: 'json_schema',
      json_schema: { name: format.name, schema: format.schema, strict: format.strict },
    },
  };
}

export function withResponsesFormat(
  params: OpenAI.Responses.ResponseCreateParamsStreaming,
  format: ResponseFormat | undefined,
): OpenAI.Responses.ResponseCreateParamsStreaming {
  if (!format) return params;
  return {
    ...params,
    text: {
      format: { type: 'json_schema', name: format.name, schema: format.schema, strict: format.strict },
    },
  };
}

/**
 * A rendered request with the answer format put into its params by the dialect's `apply` (the
 * render as it is when the request asks for no format); its report still built on first read.
 */
export function withFormat<P>(
  rendered: { params: P; readonly report: RenderReport },
  format: ResponseFormat | undefined,
  apply: (params: P, format: ResponseFormat) => P,
): { params: P; readonly report: RenderReport } {
  if (!format) return rendered;
  return {
    params: apply(rendered.params, format),
    get report() {
      return rendered.report;
    },
  };
}
