import type OpenAI from 'openai';
import type { Message, ThinkingPart, Vendor } from '@/lib/protocol';
import type { ModelRequest, ToolSpec } from './model-request';
import { describeMinter } from './credentials';
import { createReportBuilder, type RenderReport, type ReportBuilder } from './render-report';

export interface RenderOpenAIOptions {
  request: ModelRequest;
  vendor: Vendor;
}

export interface RenderedOpenAI {
  params: OpenAI.ChatCompletionCreateParamsStreaming;
  report: RenderReport;
}

/**
 * An assistant message as DeepSeek-style servers want it back: the SDK type lacks
 * `reasoning_content`, but thinking-mode tool rounds are a 400 without it.
 */
export type AssistantMessageWithReasoning = OpenAI.ChatCompletionAssistantMessageParam & {
  reasoning_content?: string;
};

/**
 * Renders a neutral request as an OpenAI Chat Completions request. Thinking has no place
 * in this dialect except DeepSeek's `reasoning_content`, so it is dropped and reported.
 */
export function renderOpenAI(options: RenderOpenAIOptions): RenderedOpenAI {
  const { request, vendor } = options;
  const report = createReportBuilder();
  const messages: OpenAI.ChatCompletionMessageParam[] = [];
  if (request.system !== '') messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) {
    const rendered =
      message.role === 'user' ? renderUser(message, report) : renderAssistant({ message, vendor, request, report });
    messages.push(...rendered);
  }

  const params: OpenAI.ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  // OpenAI deprecated max_tokens; compatible servers (DeepSeek, vLLM, Ollama) still read it.
  if (vendor === 'openai-compatible') params.max_tokens = request.maxTokens;
  else params.max_completion_tokens = request.maxTokens;
  if (request.tools.length > 0) params.tools = request.tools.map(renderTool);
  return { params, report: report.build() };
}

/** Tool results become `tool` messages, placed first: they must directly follow the call. */
function renderUser(message: Message, report: ReportBuilder): OpenAI.ChatCompletionMessageParam[] {
  const out: OpenAI.ChatCompletionMessageParam[] = [];
  const texts: string[] = [];
  for (const part of message.parts) {
    if (part.type === 'tool_result') {
      report.count('tool result rendered as a tool message');
      out.push({ role: 'tool', tool_call_id: part.callId, content: part.content });
    } else if (part.type === 'text') {
      if (part.text !== '') texts.push(part.text);
    } else {
      report.drop(part.type, `${part.type} part in a user message dropped: the chat format has no place for it`);
    }
  }
  if (texts.length > 0) out.push({ role: 'user', content: texts.join('\n\n') });
  return out;
}

function renderAssistant(options: {
  message: Message;
  vendor: Vendor;
  request: ModelRequest;
  report: ReportBuilder;
}): OpenAI.ChatCompletionMessageParam[] {
  const { message, vendor, request, report } = options;
  const texts: string[] = [];
  const thinking: ThinkingPart[] = [];
  const toolCalls: OpenAI.ChatCompletionMessageFunctionToolCall[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') texts.push(part.text);
        break;
      case 'thinking':
        thinking.push(part);
        break;
      case 'redacted_thinking':
        report.drop(
          'redacted_thinking',
          `redacted thinking block from ${part.model} dropped: it is bound to ${describeMinter(part)} and ${vendor} cannot read it`,
        );
        break;
      case 'tool_call':
        report.count('tool call rendered as a function tool call');
        toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.argsText } });
        break;
      case 'tool_result':
        // Misplaced, but the call it answers still needs it: send it after this message.
        break;
    }
  }

  const reasoning = needsReasoningContent({ vendor }) && toolCalls.length > 0;
  for (const part of thinking) {
    if (reasoning) continue;
    const from = part.credential ? ` from ${part.credential.model}` : '';
    report.drop('thinking', `thinking block${from} dropped: ${vendor}/${request.model} takes no thinking back`);
  }
  const out: OpenAI.ChatCompletionMessageParam[] = [];
  if (texts.length > 0 || toolCalls.length > 0) {
    const assistant: AssistantMessageWithReasoning = {
      role: 'assistant',
      content: texts.length > 0 ? texts.join('\n\n') : null,
    };
    if (toolCalls.length > 0) assistant.tool_calls = toolCalls;
    if (reasoning) {
      const text = thinking.map((t) => t.text).join('\n\n');
      assistant.reasoning_content = text === '' ? REASONING_PLACEHOLDER : text;
      report.count(
        text === ''
          ? `tool-call turn given the placeholder reasoning_content "${REASONING_PLACEHOLDER}"`
          : 'thinking text passed back as reasoning_content',
      );
    }
    out.push(assistant);
  }
  for (const part of message.parts) {
    if (part.type === 'tool_result') {
      report.count('tool result rendered as a tool message');
      out.push({ role: 'tool', tool_call_id: part.callId, content: part.content });
    }
  }
  return out;
}

/** What a tool-call turn with no thinking of its own carries as `reasoning_content` (CodeSmith's shaper pads the same). */
export const REASONING_PLACEHOLDER = '(reasoning omitted)';

/**
 * DeepSeek in thinking mode rejects a tool-call turn sent back without `reasoning_content`
 * (even an empty one); other OpenAI-dialect targets ignore or reject the field.
 */
export function needsReasoningContent(options: { vendor: Vendor }): boolean {
  return options.vendor === 'openai-compatible';
}

function renderTool(tool: ToolSpec): OpenAI.ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}
