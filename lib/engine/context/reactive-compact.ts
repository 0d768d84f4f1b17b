import type { Message } from '@/lib/protocol';
import { cutPoints } from './context-view';

/**
 * s11's reactive compact: where to cut so that the last `keep` messages are all sent, as the
 * source's slice of the last 5 keeps them. A cut falls only before an assistant message, so
 * when the oldest of those is a tool result (or another user message) the cut moves back to the
 * assistant message before it, one more message kept: a slice would send the result without
 * its call, and the vendor refuses that. Undefined: no cut drops anything.
 */
export function reactiveCut(options: {
  messages: readonly Message[];
  from: number;
  keep: number;
}): number | undefined {
  const { messages, from, keep } = options;
  const start = messages.length - keep;
  return cutPoints(messages, from)
    .filter((cut) => cut <= start)
    .at(-1);
}
