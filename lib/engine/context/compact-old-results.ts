import type { Message } from '@/lib/protocol';

/**
 * Old-result compaction: tool results over `minChars` from before the last `keepIterations`
 * assistant turns are replaced with a stub that says how to get them back. Done on the copy
 * sent to the API, never on the log.
 */
export function compactOldResults(options: {
  messages: readonly Message[];
  minChars: number;
  keepIterations: number;
}): { messages: Message[]; compacted: number } {
  const { messages, minChars, keepIterations } = options;
  // Index of the first message that is still "recent": keepIterations assistant turns back.
  let seen = 0;
  let recentFrom = messages.length;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'assistant' && ++seen > keepIterations) break;
    recentFrom = i;
  }
  let compacted = 0;
  const out = messages.map((message, index) => {
    if (index >= recentFrom || message.role !== 'user') return message;
    let changed = false;
    const parts = message.parts.map((part) => {
      if (part.type !== 'tool_result' || part.content.length <= minChars) return part;
      changed = true;
      compacted += 1;
      return {
        ...part,
        content: `[Older tool result cleared to save context: ${part.content.length} characters. Call the tool again (a narrower read or search) if you still need it.]`,
      };
    });
    return changed ? { ...message, parts } : message;
  });
  return { messages: out, compacted };
}
