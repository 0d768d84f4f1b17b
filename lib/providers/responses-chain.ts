import type { Message } from '@/lib/protocol';
import type { HeldPrefix } from '@/lib/trajectory';
import type { CompletedResponse } from './responses-events';

interface Link {
  /** The request's messages, as the array of objects the engine sent. */
  messages: readonly Message[];
  model: string;
  response: CompletedResponse;
}

/** How many finished requests are remembered: background calls (titles, summaries) come between turns. */
const KEPT = 4;

/**
 * Which stored response holds a request's history. After a response completes, the vendor
 * holds that request's messages plus the reply. A later request on the same model holds that
 * prefix when its first messages are those very message objects (nothing compacted, stubbed
 * or re-rendered in between) and the next message is the reply exactly as it streamed (same
 * text, same calls with the same arguments); anything else goes by value.
 */
export class ResponseChain {
  private readonly links: Link[] = [];

  completed(link: Link): void {
    this.links.unshift(link);
    if (this.links.length > KEPT) this.links.pop();
  }

  held(options: { model: string; messages: readonly Message[] }): HeldPrefix | undefined {
    const { messages } = options;
    for (const link of this.links) {
      const n = link.messages.length;
      if (link.model !== options.model || messages.length <= n + 1) continue;
      if (!link.messages.every((m, i) => messages[i] === m)) continue;
      const reply = messages[n]!;
      if (reply.role !== 'assistant' || !sameReply(reply, link.response)) continue;
      return { responseId: link.response.id, messages: n + 1 };
    }
    return undefined;
  }
}

function sameReply(message: Message, response: CompletedResponse): boolean {
  const texts = message.parts.flatMap((p) => (p.type === 'text' && p.text !== '' ? [p.text] : []));
  const calls = message.parts.flatMap((p) => (p.type === 'tool_call' ? [p] : []));
  const streamed = response.texts.filter((t) => t !== '');
  if (texts.join('') !== streamed.join('')) return false;
  if (calls.length !== response.calls.length) return false;
  return calls.every((c, i) => c.id === response.calls[i]!.id && c.argsText === response.calls[i]!.argsText);
}
