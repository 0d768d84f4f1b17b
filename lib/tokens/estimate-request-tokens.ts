import type { Message } from '@/lib/protocol';
import { estimateTokens } from './count-tokens';
import { messageTokens, toolTokens, type SizedRequest, type SizedTool } from './request-tokens';

const messageEstimates = new WeakMap<Message, number>();
const toolEstimates = new WeakMap<SizedTool, number>();
const listEstimates = new WeakMap<readonly Message[], { length: number; total: number }>();

/**
 * The engine's size of a request before it is sent (for the request event, the context gauge
 * and budgets): the shared request structure over the fast estimate. Messages and tool specs
 * are immutable once sent, so each is sized once however many requests carry it.
 */
export function estimateRequestTokens(request: SizedRequest): number {
  let total = estimateTokens(request.system) + estimateMessagesTokens(request.messages);
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

/**
 * The estimate of a list of messages. A step sizes the same list several times (the context
 * gauge, the threshold check, the request event), and the engine's lists only ever grow at
 * the end (the log) or never change (a request copy), so the sum is kept per list and only
 * messages appended since are added.
 */
export function estimateMessagesTokens(messages: readonly Message[]): number {
  let sum = listEstimates.get(messages);
  if (!sum || sum.length > messages.length) {
    sum = { length: 0, total: 0 };
    listEstimates.set(messages, sum);
  }
  for (let i = sum.length; i < messages.length; i++) sum.total += estimateMessageTokens(messages[i]!);
  sum.length = messages.length;
  return sum.total;
}
