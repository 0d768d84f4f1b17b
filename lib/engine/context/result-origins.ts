import type { Message } from '@/lib/protocol';

/**
 * Where each tool result in the log came from: the tool its call named and the turn that added
 * it, as a compaction step's record names them. The log only grows, so each read takes only what
 * is new since the last.
 */
export class ResultOrigins {
  private readonly toolNames = new Map<string, string>();
  private readonly resultIteration = new Map<string, number>();
  /** The log array and how much of it has been read. */
  private learned: { messages: readonly Message[]; upTo: number } | undefined;

  /** Reads the messages not read before; `iterationOf` is the turn that added a message. */
  learn(messages: readonly Message[], iterationOf: (message: Message) => number): void {
    const from =
      this.learned?.messages === messages && this.learned.upTo <= messages.length ? this.learned.upTo : 0;
    this.learned = { messages, upTo: messages.length };
    for (let i = from; i < messages.length; i++) {
      const message = messages[i]!;
      for (const part of message.parts) {
        if (part.type === 'tool_call') this.toolNames.set(part.id, part.name);
        if (part.type === 'tool_result' && !this.resultIteration.has(part.callId))
          this.resultIteration.set(part.callId, iterationOf(message));
      }
    }
  }

  /** The tool a call named ('tool' when its call was not seen). */
  tool(callId: string): string {
    return this.toolNames.get(callId) ?? 'tool';
  }

  /** The turn that added a call's result, when it was seen. */
  iteration(callId: string): number | undefined {
    return this.resultIteration.get(callId);
  }
}
