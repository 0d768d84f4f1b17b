import type { Message } from '@/lib/protocol';
import { invalidRequest } from '../rejection';
import { verifyThinking } from '../signature';

const THINKING_DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

function toolUseIds(message: Message | undefined): string[] {
  const ids: string[] = [];
  if (!message || message.role !== 'assistant') return ids;
  for (const part of message.parts) if (part.type === 'tool_call') ids.push(part.id);
  return ids;
}

/**
 * Every tool_use needs its tool_result in the very next user message, and vice versa. Plain
 * loops: the whole history is checked on every request, so no set or list is made for a
 * message that has no tool block.
 */
function checkToolPairing(messages: Message[]): void {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'user') continue;
    let offered: Set<string> | undefined;
    message.parts.forEach((part, j) => {
      if (part.type !== 'tool_result') return;
      offered ??= new Set(toolUseIds(messages[i - 1]));
      if (!offered.has(part.callId)) {
        throw invalidRequest(
          `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${part.callId}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
    });
  }
  for (let i = 0; i < messages.length; i++) {
    const ids = toolUseIds(messages[i]);
    if (ids.length === 0) continue;
    const next = messages[i + 1];
    const answered = new Set<string>();
    if (next?.role === 'user')
      for (const part of next.parts) if (part.type === 'tool_result') answered.add(part.callId);
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      throw invalidRequest(
        `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
  }
}

/** In a tool loop with thinking on, the assistant turn being continued must open with thinking. */
function checkThinkingStart(messages: Message[]): void {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'user' || !last.parts.some((p) => p.type === 'tool_result')) return;
  const index = messages.length - 2;
  const assistant = messages[index];
  if (!assistant || assistant.role !== 'assistant') return;
  const first = assistant.parts[0];
  if (first && (first.type === 'thinking' || first.type === 'redacted_thinking')) return;
  const found = first ? (first.type === 'tool_call' ? 'tool_use' : first.type) : 'text';
  throw invalidRequest(
    `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${THINKING_DOCS}`,
  );
}

/** A thinking block is accepted only if this vendor minted it, for this very model. */
function checkSignatures(messages: Message[], model: string, key: string): void {
  messages.forEach((message, i) => {
    message.parts.forEach((part, j) => {
      if (part.type === 'thinking') {
        const signature = part.credential?.signature ?? '';
        if (!verifyThinking({ key, model, thinking: part.text, signature })) {
          throw invalidRequest(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
        }
      } else if (part.type === 'redacted_thinking') {
        // This simulated vendor never redacts, so any redacted block came from somewhere else.
        throw invalidRequest(`messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`);
      }
    });
  });
}

/** The conversation rules the Messages API enforces beyond field types. */
export function validateAnthropicConversation(options: {
  messages: Message[];
  model: string;
  thinking: boolean;
  signingKey: string;
}): void {
  const { messages } = options;
  if (messages[0]?.role !== 'user') throw invalidRequest('messages: first message must use the "user" role');
  checkToolPairing(messages);
  checkSignatures(messages, options.model, options.signingKey);
  if (options.thinking) checkThinkingStart(messages);
}
