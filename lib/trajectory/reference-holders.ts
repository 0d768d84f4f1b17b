import type { Message } from '@/lib/protocol';

/** A vendor that holds a history by reference: its stored response and how many messages it stands for. */
export interface ReferenceHolder {
  vendor: string;
  model: string;
  responseId: string;
  /** The first this-many messages of the history: the request up to the message marked, and the reply after it. */
  messages: number;
}

const holders = new WeakMap<Message, ReferenceHolder>();

/** Marks the last message of a request whose response the vendor stored (by the adapter that sent it). */
export function markHeldBy(message: Message, holder: ReferenceHolder): void {
  holders.set(message, holder);
}

/**
 * The last reference the history was sent by, if the vendor and model that held it are
 * `from`: what a takeover away from them must re-send by value, since a reference means
 * nothing to anyone else.
 */
export function heldReference(options: {
  messages: readonly Message[];
  from: { vendor: string; model: string };
}): ReferenceHolder | undefined {
  const { from } = options;
  const holder = lastReference(options.messages);
  return holder && holder.vendor === from.vendor && holder.model === from.model ? holder : undefined;
}

/** The last reference the history was sent by, whoever held it (what the `handles` rule keeps from travelling). */
export function lastReference(messages: readonly Message[]): ReferenceHolder | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const holder = holders.get(messages[i]!);
    if (holder && holder.messages === i + 2 && messages[i + 1]?.role === 'assistant') return holder;
  }
  return undefined;
}
