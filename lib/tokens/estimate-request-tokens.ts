import type { Message } from '@/lib/protocol';
import { estimateTokens } from './count-tokens';
import { messageTokens, toolTokens, type SizedRequest, type SizedTool } from './request-tokens';

const messageEstimates = new WeakMap<Message, number>();
const toolEstimates = new WeakMap<SizedTool, number>();

/**
 * The engine's size of a request before it is sent (for the request event, the context gauge
 * and budgets): the shared request structure over the fast estimate. Messages and tool specs
 * are immutable once sent, so each is sized once however many requests carry it.
 */
export function estimateRequestTokens(request: SizedRequest): number {
  let total = estimateTokens(request.system);
  for (const message of request.messages) total += estimateMessageTokens(message);
  for (const tool of request.tools ?? []) {
    let n = toolEstimates.get(tool);
    if (n === undefined) {
      n = toolTokens(tool, estimateTokens);
      toolEstimates.set(tool, n);
    }
    total += n;
  }
  return total;
}

/** The estimate of one message with its framing, sized once per message object. */
export function estimateMessageTokens(message: Message): number {
  let n = messageEstimates.get(message);
  if (n === undefined) {
    n = messageTokens(message, estimateTokens);
    messageEstimates.set(message, n);
  }
  return n;
}
