import type { ContextConfigSchema, Message, SentMessage } from '@/lib/protocol';
import type { z } from 'zod';
import { compactOldResults } from './compact-old-results';

type OldResultConfig = z.infer<typeof ContextConfigSchema>;

export const SUMMARY_HEADER =
  '[Summary of the earlier conversation, written by a compaction call. The messages it covers are no longer sent.]';

/** The request copy for one request: what the vendor receives, and its description for the log. */
export interface SentCopy {
  messages: Message[];
  refs: SentMessage[];
  /** Call id → tool result chars, for every result sent as a stub. */
  stubs: Map<string, number>;
}

/**
 * What the context channel has done to the conversation, as state over the log: where the
 * sent copy starts (older messages summarised or trimmed), the summary and trim note sent in
 * their place, results a micro-compact cleared, and since when each result went as a stub.
 * The log's own messages are never changed; the sent copy is rebuilt from them per request.
 */
export class ContextView {
  /** Log messages before this index are not sent. Always an assistant message's index, or 0. */
  from = 0;
  summary: { text: string; iteration: number } | undefined;
  trimmed = 0;
  readonly forcedStubs = new Set<string>();
  readonly stubSince = new Map<string, number>();
  private readonly iterationOf = new WeakMap<Message, number>();

  /** Stamps messages the loop added since the last request with the iteration they came from. */
  noteIterations(messages: readonly Message[], previousIteration: number): void {
    // The log only grows: what was stamped at the last call is still stamped.
    const from =
      this.noted?.messages === messages && this.noted.upTo <= messages.length ? this.noted.upTo : 0;
    this.noted = { messages, upTo: messages.length };
    for (let i = from; i < messages.length; i++) {
      const message = messages[i]!;
      if (!this.iterationOf.has(message)) this.iterationOf.set(message, previousIteration);
    }
  }

  private noted: { messages: readonly Message[]; upTo: number } | undefined;

  iteration(message: Message): number {
    return this.iterationOf.get(message) ?? 0;
  }

  /** The copy to send: a head (summary and trim note) when history was cut, then the kept log messages with stubs. */
  build(options: {
    messages: readonly Message[];
    config: OldResultConfig;
    iteration: number;
    count: (m: Message) => number;
    task: string;
  }): SentCopy {
    const { messages, config, iteration, count } = options;
    const kept = this.from === 0 ? messages : messages.slice(this.from);
    const compacted = compactOldResults({
      messages: kept,
      minChars: config.oldResultMinChars,
      keepIterations: config.keepRecentIterations,
      byAge: config.oldResultCompaction,
      forced: this.forcedStubs,
    });
    const stubs = new Map(compacted.stubbed.map((s) => [s.callId, s.chars]));
    for (const id of stubs.keys()) if (!this.stubSince.has(id)) this.stubSince.set(id, iteration);

    // The compacted list is already a copy of its own: it is what goes out, after the head if there is one.
    const sent: Message[] = compacted.messages;
    const refs: SentMessage[] = [];
    const head = this.headText(options.task);
    if (head !== undefined) {
      const message: Message = { role: 'user', parts: [{ type: 'text', text: head }] };
      sent.unshift(message);
      refs.push({
        kind: 'text',
        role: 'user',
        origin: this.summary ? 'summary' : 'trim_note',
        iteration: this.summary?.iteration ?? iteration,
        tokens: count(message),
        text: head,
      });
    }
    for (let i = 0; i < kept.length; i++) {
      const message = sent[head === undefined ? i : i + 1]!;
      refs.push(this.ref(message, this.iteration(kept[i]!), count(message), stubs, iteration));
    }
    return { messages: sent, refs, stubs };
  }

  /** How the context_sent event describes one sent log message (built per request: tokens follow the meter's scale). */
  private ref(
    message: Message,
    from: number,
    tokens: number,
    stubs: ReadonlyMap<string, number>,
    iteration: number,
  ): SentMessage {
    if (message.role === 'assistant') return { kind: 'assistant', iteration: from, tokens };
    let results = false;
    const stubbed: { call_id: string; chars: number; since: number }[] = [];
    for (const p of message.parts) {
      if (p.type !== 'tool_result') continue;
      results = true;
      const chars = stubs.get(p.callId);
      if (chars !== undefined)
        stubbed.push({ call_id: p.callId, chars, since: this.stubSince.get(p.callId) ?? iteration });
    }
    if (results) return { kind: 'results', iteration: from, tokens, stubs: stubbed };
    const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
    return { kind: 'text', role: 'user', origin: 'log', iteration: from, tokens, text };
  }

  /** What replaces the history no longer sent: the summary, or a trim note that keeps the task in view. */
  private headText(task: string): string | undefined {
    if (this.from === 0) return undefined;
    const note = `[${this.trimmed} older message${this.trimmed === 1 ? ' was' : 's were'} trimmed to fit the context window.]`;
    if (this.summary)
      return [SUMMARY_HEADER, this.summary.text, ...(this.trimmed > 0 ? [note] : [])].join('\n\n');
    return `${note}\n\nThe task: ${task}`;
  }
}

/** Indexes of assistant messages after `from`: the only places history may be cut (a tool call stays with its results). */
export function cutPoints(messages: readonly Message[], from: number): number[] {
  const points: number[] = [];
  for (let i = from + 1; i < messages.length; i++) if (messages[i]!.role === 'assistant') points.push(i);
  return points;
}
