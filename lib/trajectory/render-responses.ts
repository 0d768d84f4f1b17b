import type OpenAI from 'openai';
import { DEFAULT_TAKEOVER, type Message, type TakeoverHandling, type Vendor } from '@/lib/protocol';
import { describeMinter, isMintedBy } from './credentials';
import { foreignThinkingNote } from './foreign-thinking-note';
import type { ModelRequest, ToolSpec } from './model-request';
import { createReportBuilder, type RenderReport, type ReportBuilder } from './render-report';

type InputItem = OpenAI.Responses.ResponseInputItem;
type ReportSink = Omit<ReportBuilder, 'build'>;

/** The prefix of a request's messages the vendor holds as a stored response of this model. */
export interface HeldPrefix {
  responseId: string;
  /** How many of the request's first messages that response stands for. */
  messages: number;
  /** Who held it, when that is another model or vendor (sent so with the `handles` safeguard off). */
  elsewhere?: string;
}

export interface RenderResponsesOptions {
  request: ModelRequest;
  vendor: Vendor;
  handling?: TakeoverHandling;
  /** When the vendor holds the history's prefix: sent by reference, only the rest by value. */
  held?: HeldPrefix;
}

export interface RenderedResponses {
  params: OpenAI.Responses.ResponseCreateParamsStreaming;
  /** Built on first read, like the other dialects' reports. */
  readonly report: RenderReport;
}

/** The Responses API refuses a smaller output cap. */
export const MIN_OUTPUT_TOKENS = 16;

/**
 * Renders a neutral request for OpenAI's Responses API. Where the vendor holds the history's
 * prefix (a stored response of the same vendor and model, `held`) the prefix goes by
 * reference (`previous_response_id`) and only the messages after it by value; otherwise the
 * whole history goes by value. Reasoning travels back only as the encrypted items its own
 * model minted; foreign thinking is dropped or kept as a marked note, and naive sends every
 * credential as an encrypted reasoning item, as it was.
 */
export function renderResponses(options: RenderResponsesOptions): RenderedResponses {
  const { request, vendor } = options;
  const handling = options.handling ?? DEFAULT_TAKEOVER;
  const report = createReportBuilder();
  const held = options.held && options.held.messages <= request.messages.length ? options.held : undefined;
  const from = held ? held.messages : 0;
  for (let i = 0; i < request.messages.length; i++) {
    if (i < from && held?.elsewhere)
      report.asIs(
        `handles rule off: message held by ${held.elsewhere}, sent by its reference (previous_response_id) as it was`,
        'handles',
      );
    else
      report.count(
        i >= from
          ? 'message sent by value'
          : `message held by ${vendor}/${request.model}, sent by reference (previous_response_id)`,
      );
  }
  const input: InputItem[] = [];
  for (const message of request.messages.slice(from)) {
    if (message.role === 'user') renderUser(message, input, report);
    else renderAssistant(message, input, { vendor, model: request.model, handling, report });
  }
  const params: OpenAI.Responses.ResponseCreateParamsStreaming = {
    model: request.model,
    input,
    stream: true,
    store: true,
    include: ['reasoning.encrypted_content'],
    max_output_tokens: Math.max(MIN_OUTPUT_TOKENS, request.maxTokens),
  };
  if (held) params.previous_response_id = held.responseId;
  if (request.system !== '') params.instructions = request.system;
  if (request.thinking) params.reasoning = { effort: 'medium', summary: 'auto' };
  if (request.tools.length > 0) params.tools = request.tools.map(renderTool);
  let built: RenderReport | undefined;
  return {
    params,
    get report() {
      return (built ??= report.build());
    },
  };
}

function renderUser(message: Message, input: InputItem[], report: ReportSink): void {
  const texts: string[] = [];
  for (const part of message.parts) {
    if (part.type === 'tool_result') {
      report.count('tool result rendered as a function_call_output item');
      input.push({ type: 'function_call_output', call_id: part.callId, output: part.content });
    } else if (part.type === 'text') {
      if (part.text !== '') texts.push(part.text);
    } else {
      report.drop(
        part.type,
        `${part.type} part in a user message dropped: the Responses input has no place for it`,
      );
    }
  }
  if (texts.length > 0) input.push({ role: 'user', content: texts.join('\n\n') });
}

function renderAssistant(
  message: Message,
  input: InputItem[],
  context: { vendor: Vendor; model: string; handling: TakeoverHandling; report: ReportSink },
): void {
  const { vendor, model, handling, report } = context;
  const texts: string[] = [];
  const results: InputItem[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'thinking': {
        const credential = part.credential;
        if (credential && credential.item !== undefined && isMintedBy({ credential, vendor, model })) {
          report.count('own reasoning passed back as its encrypted reasoning item');
          input.push(reasoningItem({ id: credential.item, text: part.text, sealed: credential.signature }));
        } else if (credential && handling.naive) {
          report.asIs('foreign reasoning sent as an encrypted reasoning item, as it was', 'credentials');
          input.push(
            reasoningItem({
              id: credential.item ?? 'rs_foreign',
              text: part.text,
              sealed: credential.signature,
            }),
          );
        } else if (handling.foreignThinking === 'note' && !handling.naive && part.text.trim() !== '') {
          if (credential)
            report.drop(
              'signature',
              `encrypted reasoning dropped: it is sealed to ${describeMinter(credential)} and ${vendor}/${model} cannot read it`,
              'credentials',
            );
          report.count('foreign thinking kept as a marked note');
          texts.push(foreignThinkingNote({ from: credential ?? part.origin, text: part.text }));
        } else {
          const who = credential ?? part.origin;
          report.drop(
            'thinking',
            `thinking block${who ? ` from ${who.model}` : ''} dropped: ${vendor}/${model} reads back only reasoning items it sealed itself`,
            credential ? 'credentials' : undefined,
          );
        }
        break;
      }
      case 'redacted_thinking':
        if (handling.naive) {
          report.asIs(
            `redacted thinking from ${describeMinter(part)} sent as an encrypted reasoning item, as it was`,
            'credentials',
          );
          input.push(reasoningItem({ id: 'rs_redacted', text: '', sealed: part.data }));
        } else
          report.drop(
            'redacted_thinking',
            `redacted thinking block from ${part.model} dropped: it is bound to ${describeMinter(part)} and ${vendor} cannot read it`,
            'credentials',
          );
        break;
      case 'text':
        if (part.text !== '') texts.push(part.text);
        break;
      case 'tool_call':
        flushText(texts, input);
        report.count('tool call rendered as a function_call item');
        input.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: part.argsText });
        break;
      case 'tool_result':
        // Misplaced, but the call it answers still needs it: sent after this message's items.
        results.push({ type: 'function_call_output', call_id: part.callId, output: part.content });
        break;
    }
  }
  flushText(texts, input);
  for (const item of results) {
    report.count('tool result rendered as a function_call_output item');
    input.push(item);
  }
}

function flushText(texts: string[], input: InputItem[]): void {
  if (texts.length === 0) return;
  input.push({ role: 'assistant', content: texts.join('\n\n') });
  texts.length = 0;
}

function reasoningItem(options: { id: string; text: string; sealed: string }): InputItem {
  return {
    type: 'reasoning',
    id: options.id,
    summary: options.text === '' ? [] : [{ type: 'summary_text', text: options.text }],
    encrypted_content: options.sealed,
  };
}

function renderTool(tool: ToolSpec): OpenAI.Responses.FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  };
}
