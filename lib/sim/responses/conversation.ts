import type { Message, Part } from '@/lib/protocol';
import { VendorRejection, invalidRequest, isRecord } from '../rejection';
import { quoteEncrypted, unsealReasoning } from './encrypted-reasoning';

/** The vendor's own words for the conversation rules it enforces (recorded 400 bodies). */
export const noToolOutput = (callId: string): string => `No tool output found for function call ${callId}.`;
export const noToolCall = (callId: string): string =>
  `No tool call found for function call output with call_id ${callId}.`;
export const notVerified = (content: string): string =>
  `The encrypted content ${quoteEncrypted(content)} could not be verified.`;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      isRecord(part) && typeof part.text === 'string'
        ? part.text
        : isRecord(part) && typeof part.type === 'string'
          ? `[${part.type}]`
          : '',
    )
    .join('\n');
}

function summaryOf(item: Record<string, unknown>): string {
  const summary = Array.isArray(item.summary) ? item.summary : [];
  return summary.map((s) => (isRecord(s) && typeof s.text === 'string' ? s.text : '')).join('\n\n');
}

/**
 * The conversation a request stands for — the stored chain its `previous_response_id` names,
 * then its own input — checked as the vendor checks it: every function_call answered by a
 * function_call_output and every output answering a call; every reasoning item the request
 * sends sealed to the model it is sent to. Returns the neutral view a policy reads.
 */
export function readConversation(options: {
  chain: Record<string, unknown>[];
  input: Record<string, unknown>[];
  model: string;
  sealingKey?: string;
}): {
  system: string;
  messages: Message[];
} {
  const { model } = options;
  // Reasoning the vendor itself stored is trusted; what the request brings must verify.
  for (const item of options.input) {
    if (item.type !== 'reasoning') continue;
    const id = String(item.id);
    if (typeof item.encrypted_content !== 'string') {
      throw invalidRequest(
        `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
        {
          param: 'input',
        },
      );
    }
    if (
      !unsealReasoning({
        model,
        itemId: id,
        content: item.encrypted_content,
        ...(options.sealingKey ? { key: options.sealingKey } : {}),
      })
    ) {
      throw new VendorRejection({
        status: 400,
        type: 'invalid_request_error',
        code: 'invalid_encrypted_content',
        message: notVerified(item.encrypted_content),
      });
    }
  }

  const items = [...options.chain, ...options.input];
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const item of items) {
    if (item.type === 'function_call') calls.add(String(item.call_id));
    if (item.type === 'function_call_output') {
      const id = String(item.call_id);
      if (!calls.has(id)) throw invalidRequest(noToolCall(id), { param: 'input' });
      answered.add(id);
    }
  }
  for (const id of calls) if (!answered.has(id)) throw invalidRequest(noToolOutput(id), { param: 'input' });

  const system: string[] = [];
  const messages: Message[] = [];
  const append = (role: Message['role'], part: Part): void => {
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.parts.push(part);
    else messages.push({ role, parts: [part] });
  };
  for (const item of items) {
    switch (item.type) {
      case 'message':
        if (item.role === 'system' || item.role === 'developer') system.push(textOf(item.content));
        else
          append(item.role === 'assistant' ? 'assistant' : 'user', {
            type: 'text',
            text: textOf(item.content),
          });
        break;
      case 'reasoning':
        append('assistant', { type: 'thinking', text: summaryOf(item) });
        break;
      case 'function_call': {
        const argsText = String(item.arguments);
        let args: Record<string, unknown> | undefined;
        try {
          const parsed: unknown = JSON.parse(argsText);
          if (isRecord(parsed)) args = parsed;
        } catch {
          args = undefined;
        }
        append('assistant', {
          type: 'tool_call',
          id: String(item.call_id),
          name: String(item.name),
          argsText,
          ...(args ? { args } : {}),
        });
        break;
      }
      case 'function_call_output': {
        const content = String(item.output);
        append('user', {
          type: 'tool_result',
          callId: String(item.call_id),
          content,
          isError: /^\s*(\[?error\]?\b|tool error|failed\b)/i.test(content),
        });
        break;
      }
    }
  }
  return { system: system.join('\n\n'), messages };
}
