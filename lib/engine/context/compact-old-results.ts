import { stubText, type Message } from '@/lib/protocol';

export { stubText };

/** A tool result that went out as a stub. */
export interface StubbedResult {
  callId: string;
  chars: number;
}

/**
 * Old-result compaction: tool results over `minChars` from before the last `keepIterations`
 * assistant turns are replaced with a stub that says how to get them back; results whose
 * call id is in `forced` (a micro-compact cleared them) are stubbed whatever their age.
 * Done on the copy sent to the API, never on the log.
 */
export function compactOldResults(options: {
  messages: readonly Message[];
  minChars: number;
  keepIterations: number;
  /** Apply the age rule at all (off: only `forced` stubs). */
  byAge?: boolean;
  forced?: ReadonlySet<string>;
}): { messages: Message[]; compacted: number; stubbed: StubbedResult[] } {
  const { messages, minChars, keepIterations, byAge = true, forced } = options;
  // Index of the first message that is still "recent": keepIterations assistant turns back.
  let seen = 0;
  let recentFrom = messages.length;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'assistant' && ++seen > keepIterations) break;
    recentFrom = i;
  }
  const stubbed: StubbedResult[] = [];
  // Copied only from the first stubbed message on: most requests stub nothing new.
  let out: Message[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    let key = '';
    if (message.role === 'user') {
      for (const part of message.parts) {
        if (part.type !== 'tool_result') continue;
        const aged = byAge && index < recentFrom && part.content.length > minChars;
        if (!aged && !forced?.has(part.callId)) continue;
        key += `${part.callId}\u0000`;
        stubbed.push({ callId: part.callId, chars: part.content.length });
      }
    }
    if (key !== '') (out ??= messages.slice(0, index))[index] = stubbedCopy(message, key);
    else out?.push(message);
  }
  return { messages: out ?? messages.slice(), compacted: stubbed.length, stubbed };
}

/** The stubbed copy of a message, per set of stubbed call ids: one object however many requests send it. */
const copies = new WeakMap<Message, { key: string; copy: Message }>();

function stubbedCopy(message: Message, key: string): Message {
  const hit = copies.get(message);
  if (hit?.key === key) return hit.copy;
  const ids = new Set(key.split('\u0000'));
  const parts = message.parts.map((part) =>
    part.type === 'tool_result' && ids.has(part.callId)
      ? { ...part, content: stubText(part.content.length) }
      : part,
  );
  const copy = { ...message, parts };
  copies.set(message, { key, copy });
  return copy;
}
