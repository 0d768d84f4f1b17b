import type { Message } from '@/lib/protocol';
import { cutPoints } from './context-view';

/**
 * s11's reactive compact: where to cut so that at most `keep` of the newest messages are sent
 * (the earliest such cut keeps as many as allowed). A cut always falls before an assistant
 * message, so a tool call is never sent without its result. Undefined: no cut fits.
 */
export function reactiveCut(options: { messages: readonly Message[]; from: number; keep: number }): number | undefined {
  const { messages, from, keep } = options;
  return cutPoints(messages, from).find((cut) => messages.length - cut <= keep);
}
