import type OpenAI from 'openai';
import {
  DEFAULT_TAKEOVER,
  takeoverKey,
  takeoverRuleOn,
  type Message,
  type TakeoverHandling,
  type ThinkingPart,
  type Vendor,
} from '@/lib/protocol';
import type { ModelRequest, ToolSpec } from './model-request';
import { describeMinter } from './credentials';
import { foreignThinkingNote } from './foreign-thinking-note';
import {
  recordingReport,
  reportFromCalls,
  type RenderReport,
  type ReportBuilder,
  type ReportCall,
} from './render-report';

export interface RenderOpenAIOptions {
  request: ModelRequest;
  vendor: Vendor;
  /**
   * DeepSeek-style thinking mode: tool-call turns carry `reasoning_content` back (the dialect
   * module decides: lib/dialects/deepseek-reasoning.ts).
   */
  reasoningContent: boolean;
  /** `max_tokens` (compatible servers) instead of OpenAI's `max_completion_tokens`. */
  legacyMaxTokens: boolean;
  /** How foreign history is handled; default: credentials and foreign thinking dropped. */
  handling?: TakeoverHandling;
}

/** Where a part's rendering reports what it converted or dropped. */
type ReportSink = Omit<ReportBuilder, 'build'>;

interface AssistantContext {
  vendor: Vendor;
  model: string;
  reasoning: boolean;
  handling: TakeoverHandling;
  report: ReportSink;
}

export interface RenderedOpenAI {
  params: OpenAI.ChatCompletionCreateParamsStreaming;
  /** Built on first read: only a takeover's first request reads it, so the others never pay for it. */
  readonly report: RenderReport;
}

/** A message's chat messages as last rendered, for the target they were rendered for, and what rendering them reported. */
interface RenderedMessage {
  target: string;
  out: OpenAI.ChatCompletionMessageParam[];
  calls: ReportCall[];
}

const renderedMessages = new WeakMap<Message, RenderedMessage>();

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
  const reasoning = options.reasoningContent;
  const handling = options.handling ?? DEFAULT_TAKEOVER;
  const context: MessageContext = {
    vendor,
    model: request.model,
    reasoning,
    handling,
    target: `${vendor}\u0000${request.model}\u0000${reasoning}\u0000${takeoverKey(handling)}`,
  };
  const messages: OpenAI.ChatCompletionMessageParam[] = [];
  const calls: (readonly ReportCall[])[] = [];
  if (request.system !== '') messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) {
    const rendered = renderMessage(message, context);
    for (const out of rendered.out) messages.push(out);
    calls.push(rendered.calls);
  }

  const params: OpenAI.ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  // OpenAI deprecated max_tokens; compatible servers (DeepSeek, vLLM, Ollama) still read it.
  if (options.legacyMaxTokens) params.max_tokens = request.maxTokens;
  else params.max_completion_tokens = request.maxTokens;
  if (request.tools.length > 0) params.tools = request.tools.map(renderTool);
  let report: RenderReport | undefined;
  return {
    params,
    get report() {
      return (report ??= reportFromCalls(calls));
    },
  };
}

type MessageContext = Omit<AssistantContext, 'report'> & {
  /** Everything a message's rendering depends on besides the message: the cache key. */
  target: string;
};

/**
 * One message's chat messages. Messages are immutable once in the log and each request
 * carries the whole history again, so a message is rendered once per target however many
 * requests carry it; the rendered objects are shared between requests (nothing changes them).
 */
function renderMessage(message: Message, context: MessageContext): RenderedMessage {
  const hit = renderedMessages.get(message);
  if (hit && hit.target === context.target) return hit;
  const calls: ReportCall[] = [];
  const report = recordingReport(calls);
  const { vendor, model, reasoning, handling } = context;
  const out =
    message.role === 'user'
      ? renderUser(message, report)
      : renderAssistant(message, { vendor, model, reasoning, handling, report });
  const entry = { target: context.target, out, calls };
  renderedMessages.set(message, entry);
  return entry;
}

/** Tool results become `tool` messages, placed first: they must directly follow the call. */
function renderUser(message: Message, report: ReportSink): OpenAI.ChatCompletionMessageParam[] {
  const out: OpenAI.ChatCompletionMessageParam[] = [];
  const texts: string[] = [];
  for (const part of message.parts) {
    if (part.type === 'tool_result') {
      report.count('tool result rendered as a tool message');
      out.push({ role: 'tool', tool_call_id: part.callId, content: part.content });
    } else if (part.type === 'text') {
      if (part.text !== '') texts.push(part.text);
    } else {
      report.drop(
        part.type,
        `${part.type} part in a user message dropped: the chat format has no place for it`,
      );
    }
  }
  if (texts.length > 0) out.push({ role: 'user', content: texts.join('\n\n') });
  return out;
}

function renderAssistant(message: Message, context: AssistantContext): OpenAI.ChatCompletionMessageParam[] {
  const { vendor, report, handling } = context;
  const texts: string[] = [];
  const own: ThinkingPart[] = [];
  const foreign: ThinkingPart[] = [];
  const toolCalls: OpenAI.ChatCompletionMessageFunctionToolCall[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') texts.push(part.text);
        break;
      case 'thinking':
        // Reasoning text is this vendor's own when it wrote it; no signature travels in this dialect.
        (part.origin?.vendor === vendor && !part.credential ? own : foreign).push(part);
        break;
      case 'redacted_thinking':
        report.drop(
          'redacted_thinking',
          `redacted thinking block from ${part.model} dropped: it is bound to ${describeMinter(part)} and ${vendor} cannot read it`,
        );
        break;
      case 'tool_call':
        report.count('tool call rendered as a function tool call');
        toolCalls.push({
          id: part.id,
          type: 'function',
          function: { name: part.name, arguments: part.argsText },
        });
        break;
      case 'tool_result':
        // Misplaced, but the call it answers still needs it: send it after this message.
        break;
    }
  }

  const reasoning = context.reasoning && toolCalls.length > 0;
  const notes = foreignThinking(foreign, context);
  for (const part of own) {
    if (!reasoning)
      report.drop(
        'thinking',
        `own reasoning of ${vendor}/${part.origin?.model ?? context.model} not sent back: outside a tool-call turn it is ignored`,
      );
  }
  const content = [...notes, ...texts];
  const out: OpenAI.ChatCompletionMessageParam[] = [];
  if (content.length > 0 || toolCalls.length > 0) {
    const assistant: AssistantMessageWithReasoning = {
      role: 'assistant',
      content: content.length > 0 ? content.join('\n\n') : null,
    };
    if (toolCalls.length > 0) assistant.tool_calls = toolCalls;
    if (reasoning && (own.length > 0 || takeoverRuleOn(handling, 'reasoning_placeholder'))) {
      const text = own.map((t) => t.text).join('\n\n');
      assistant.reasoning_content = text === '' ? REASONING_PLACEHOLDER : text;
      if (text === '')
        report.count(
          `tool-call turn given the placeholder reasoning_content "${REASONING_PLACEHOLDER}"`,
          'reasoning_placeholder',
        );
      else report.count('own reasoning passed back as reasoning_content');
    } else if (reasoning) {
      report.asIs(
        `${handling.naive ? '' : 'reasoning placeholder rule off: '}tool-call turn sent without reasoning_content, as it was`,
        'reasoning_placeholder',
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

/** Foreign thinking has no place here: dropped, or kept as marked notes when asked. */
function foreignThinking(parts: ThinkingPart[], context: AssistantContext): string[] {
  const { vendor, model, report, handling } = context;
  const notes: string[] = [];
  for (const part of parts) {
    const from = part.credential ?? part.origin;
    if (handling.foreignThinking === 'note' && !handling.naive && part.text.trim() !== '') {
      if (part.credential) {
        report.drop(
          'signature',
          `signature of a thinking block dropped: it is bound to ${describeMinter(part.credential)} and ${vendor} cannot check it`,
        );
      }
      report.count('foreign thinking kept as a marked note');
      notes.push(foreignThinkingNote({ from, text: part.text }));
    } else {
      const who = from ? ` from ${from.model}` : '';
      report.drop('thinking', `thinking block${who} dropped: ${vendor}/${model} takes no thinking back`);
    }
  }
  return notes;
}

function renderTool(tool: ToolSpec): OpenAI.ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}
