import type Anthropic from '@anthropic-ai/sdk';
import {
  takeoverKey,
  takeoverRuleOn,
  type Message,
  type Part,
  type TakeoverHandling,
  type Vendor,
} from '@/lib/protocol';
import { describeMinter, isMintedBy, redactedMinter } from './credentials';
import { foreignThinkingNote } from './foreign-thinking-note';
import { parseToolArgs } from './parse-tool-args';
import { recordingReport, type ReportBuilder, type ReportCall } from './render-report';

type Role = Message['role'];

/** One rendered block and the role of the message it must travel in. */
export interface PlacedBlock {
  role: Role;
  block: Anthropic.ContentBlockParam;
}

interface PartContext {
  role: Role;
  vendor: Vendor;
  model: string;
  report: Omit<ReportBuilder, 'build'>;
  handling: TakeoverHandling;
}

/** A message's blocks as last rendered, for the target they were rendered for, and what rendering them reported. */
export interface RenderedMessage {
  target: string;
  blocks: PlacedBlock[];
  calls: ReportCall[];
}

const rendered = new WeakMap<Message, RenderedMessage>();

/**
 * Renders every part of one message. Messages are immutable once in the log, and each request
 * carries the whole history again, so a message's blocks (and what rendering them reported)
 * are kept per target (vendor, model, handling) and rendered once however many requests carry
 * them. The blocks are shared between requests: nothing downstream changes them.
 */
export function renderAnthropicMessage(
  message: Message,
  context: Omit<PartContext, 'role' | 'report'> & { target: string },
): Readonly<RenderedMessage> {
  const hit = rendered.get(message);
  if (hit && hit.target === context.target) return hit;
  const calls: ReportCall[] = [];
  const { vendor, model, handling } = context;
  const partContext: PartContext = {
    role: message.role,
    vendor,
    model,
    report: recordingReport(calls),
    handling,
  };
  const blocks: PlacedBlock[] = [];
  for (const part of message.parts) {
    const block = renderAnthropicPart(part, partContext);
    if (block) blocks.push(block);
  }
  const entry = { target: context.target, blocks, calls };
  rendered.set(message, entry);
  return entry;
}

/** The cache key of a rendering target: everything a part's rendering depends on besides the part. */
export function renderTarget(vendor: Vendor, model: string, handling: TakeoverHandling): string {
  return `${vendor}\u0000${model}\u0000${takeoverKey(handling)}`;
}

/**
 * Renders one neutral part as an Anthropic block, or drops it with a report entry. Tool
 * results always travel in a user message, whatever message held them.
 */
export function renderAnthropicPart(part: Part, context: PartContext): PlacedBlock | undefined {
  const { role, vendor, model, report, handling } = context;
  switch (part.type) {
    case 'text':
      // The API rejects empty text blocks; an empty one carries nothing worth reporting.
      if (part.text === '') return undefined;
      return { role, block: { type: 'text', text: part.text } };
    case 'thinking': {
      const credential = part.credential;
      if (credential && isMintedBy({ credential, vendor, model })) {
        report.count('thinking block passed back with its signature');
        return { role, block: { type: 'thinking', thinking: part.text, signature: credential.signature } };
      }
      if (!takeoverRuleOn(handling, 'credentials')) {
        // As it was: the foreign signature (or none) goes out, and the vendor judges it.
        const who = handling.naive ? '' : 'credentials rule off: ';
        report.asIs(
          credential
            ? `${who}thinking block sent with the signature ${describeMinter(credential)} minted`
            : `${who}thinking block sent without a signature`,
          'credentials',
        );
        return {
          role,
          block: { type: 'thinking', thinking: part.text, signature: credential?.signature ?? '' },
        };
      }
      const from = credential ?? part.origin;
      if (handling.foreignThinking === 'note' && part.text.trim() !== '') {
        if (credential) {
          report.drop(
            'signature',
            `signature of a thinking block dropped: it is bound to ${describeMinter(credential)}, not ${describeMinter({ vendor, model })}`,
            'credentials',
          );
        }
        report.count('foreign thinking kept as a marked note');
        return { role, block: { type: 'text', text: foreignThinkingNote({ from, text: part.text }) } };
      }
      const detail = credential
        ? `thinking block from ${credential.model} dropped: credential is bound to ${describeMinter(credential)}, not ${describeMinter({ vendor, model })}`
        : `thinking block without a credential dropped: ${describeMinter({ vendor, model })} accepts only thinking it signed`;
      report.drop('thinking', detail, 'credentials');
      return undefined;
    }
    case 'redacted_thinking': {
      const minter = redactedMinter(part);
      const credentialsOff = !takeoverRuleOn(handling, 'credentials');
      if (isMintedBy({ credential: minter, vendor, model })) {
        report.count('redacted thinking block passed back unchanged');
        return { role, block: { type: 'redacted_thinking', data: part.data } };
      }
      if (credentialsOff) {
        report.asIs(
          `${handling.naive ? '' : 'credentials rule off: '}redacted thinking from ${describeMinter(minter)} sent as it was`,
          'credentials',
        );
        return { role, block: { type: 'redacted_thinking', data: part.data } };
      }
      report.drop(
        'redacted_thinking',
        `redacted thinking block from ${part.model} dropped: it is bound to ${describeMinter(minter)}, not ${describeMinter({ vendor, model })}`,
        'credentials',
      );
      return undefined;
    }
    case 'tool_call': {
      const input = part.args ?? parseToolArgs(part.argsText);
      if (!input) {
        report.drop(
          'tool_args',
          `arguments of tool call ${part.name} (${part.id}) are not a JSON object; sent as {} (original text kept in the trajectory)`,
        );
      }
      report.count('tool call rendered as a tool_use block');
      return {
        role: 'assistant',
        block: { type: 'tool_use', id: part.id, name: part.name, input: input ?? {} },
      };
    }
    case 'tool_result':
      report.count('tool result rendered as a tool_result block in a user message');
      return {
        role: 'user',
        block: {
          type: 'tool_result',
          tool_use_id: part.callId,
          content: part.content,
          is_error: part.isError,
        },
      };
  }
}
