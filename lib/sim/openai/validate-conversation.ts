import { invalidRequest, isRecord } from '../rejection';

function callIds(message: Record<string, unknown> | undefined): string[] {
  if (!message || message.role !== 'assistant' || !Array.isArray(message.tool_calls)) return [];
  return message.tool_calls.flatMap((c) => (isRecord(c) && typeof c.id === 'string' ? [c.id] : []));
}

/**
 * Chat Completions pairing rules: an assistant message with tool_calls must be followed by a
 * tool message for each id, and a tool message must answer a preceding tool_calls message.
 */
export function validateOpenAIConversation(options: { wireMessages: Record<string, unknown>[] }): void {
  const messages = options.wireMessages;
  messages.forEach((message, i) => {
    if (message.role === 'tool') {
      let k = i - 1;
      while (k >= 0 && messages[k]?.role === 'tool') k--;
      const ids = callIds(messages[k]);
      if (ids.length === 0) {
        throw invalidRequest(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          {
            param: `messages.[${i}].role`,
          },
        );
      }
      if (!ids.includes(String(message.tool_call_id))) {
        throw invalidRequest(
          `Invalid parameter: 'tool_call_id' of '${String(message.tool_call_id)}' not found in 'tool_calls' of previous message.`,
          {
            param: `messages.[${i}].tool_call_id`,
          },
        );
      }
      return;
    }
    const ids = callIds(message);
    if (ids.length === 0) return;
    const answered = new Set<string>();
    for (let j = i + 1; messages[j]?.role === 'tool'; j++) answered.add(String(messages[j]!.tool_call_id));
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      throw invalidRequest(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
        { param: `messages.[${i}].role` },
      );
    }
  });
}
