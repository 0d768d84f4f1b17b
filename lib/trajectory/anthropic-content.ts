import type Anthropic from '@anthropic-ai/sdk';
import type { Message, Part, TakeoverHandling, Vendor } from '@/lib/protocol';
import { describeMinter, isMintedBy, redactedMinter } from './credentials';
import { foreignThinkingNote } from './foreign-thinking-note';
import { parseToolArgs } from './parse-tool-args';
import type { ReportBuilder } from './render-report';

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
  report: ReportBuilder;
  handling: TakeoverHandling;
}

/**
 * Renders one neutral part as an Anthropic block, or drops it with a report entry. Tool
 * results always travel in a user message, whatever message held them.
 */
export function renderAnthropicPart(part: Part, context: PartContext): PlacedBlock | undefined {
  const { role, vendor, model, report, handling } = context;
  // Only a dropped credential needs the target named: don't build the string for every part.
  const target = (): string => describeMinter({ vendor, model });
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
      if (handling.naive) {
        // As it was: the foreign signature (or none) goes out, and the vendor judges it.
        report.count(credential ? `naive: thinking block sent with the signature ${describeMinter(credential)} minted` : 'naive: thinking block sent without a signature');
        return { role, block: { type: 'thinking', thinking: part.text, signature: credential?.signature ?? '' } };
      }
      const from = credential ?? part.origin;
      if (handling.foreignThinking === 'note' && part.text.trim() !== '') {
        if (credential) {
          report.drop('signature', `signature of a thinking block dropped: it is bound to ${describeMinter(credential)}, not ${target()}`);
        }
        report.count('foreign thinking kept as a marked note');
        return { role, block: { type: 'text', text: foreignThinkingNote({ from, text: part.text }) } };
      }
      const detail = credential
        ? `thinking block from ${credential.model} dropped: credential is bound to ${describeMinter(credential)}, not ${target()}`
        : `thinking block without a credential dropped: ${target()} accepts only thinking it signed`;
      report.drop('thinking', detail);
      return undefined;
    }
    case 'redacted_thinking': {
      const minter = redactedMinter(part);
      if (isMintedBy({ credential: minter, vendor, model }) || handling.naive) {
        report.count(handling.naive && !isMintedBy({ credential: minter, vendor, model }) ? `naive: redacted thinking from ${describeMinter(minter)} sent as it was` : 'redacted thinking block passed back unchanged');
        return { role, block: { type: 'redacted_thinking', data: part.data } };
      }
      report.drop(
        'redacted_thinking',
        `redacted thinking block from ${part.model} dropped: it is bound to ${describeMinter(minter)}, not ${target()}`,
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
      return { role: 'assistant', block: { type: 'tool_use', id: part.id, name: part.name, input: input ?? {} } };
    }
    case 'tool_result':
      report.count('tool result rendered as a tool_result block in a user message');
      return {
        role: 'user',
        block: { type: 'tool_result', tool_use_id: part.callId, content: part.content, is_error: part.isError },
      };
  }
}
