import type { Message } from '@/lib/protocol';
import type { CompactionRecord } from './context-events';
import { cutPoints, type ContextView, type SentCopy } from './context-view';
import { reactiveCut } from './reactive-compact';

/** What a trim rung needs of the context channel: its view, how it builds and sizes a copy, and how it reports a step. */
export interface RungHost {
  view: ContextView;
  build(messages: readonly Message[], iteration: number): SentCopy;
  measure(messages: readonly Message[]): number;
  threshold(): number;
  step(
    record: Omit<CompactionRecord, 'stubbed'> & { stubbed: ReadonlyArray<readonly [string, number]> },
  ): void;
}

/** Results shorter than this are left alone by a micro-compact: their stub would be no smaller. */
const MICRO_MIN_CHARS = 200;

/** Rung 1: every tool result but the latest turn's goes as a stub. */
export function microCompact(
  host: RungHost,
  options: { messages: readonly Message[]; iteration: number; attempt: number },
): void {
  const { messages, iteration } = options;
  const before = host.build(messages, iteration);
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  const fresh: Array<[string, number]> = [];
  for (let i = host.view.from; i < lastAssistant; i++) {
    for (const part of messages[i]!.parts) {
      if (
        part.type === 'tool_result' &&
        part.content.length > MICRO_MIN_CHARS &&
        !before.stubs.has(part.callId)
      ) {
        host.view.forcedStubs.add(part.callId);
        fresh.push([part.callId, part.content.length]);
      }
    }
  }
  const after = fresh.length > 0 ? host.build(messages, iteration) : before;
  host.step({
    iteration,
    step: 'micro_compact',
    trigger: 'overflow',
    ok: fresh.length > 0,
    before: host.measure(before.messages),
    after: host.measure(after.messages),
    messagesBefore: before.messages.length,
    messagesAfter: after.messages.length,
    stubbed: fresh,
    reason:
      fresh.length > 0
        ? `cleared ${fresh.length} older tool result${fresh.length === 1 ? '' : 's'}`
        : 'no older tool results left to clear',
    attempt: options.attempt,
  });
}

/** s11: on prompt-too-long keep only the newest `reactiveKeepMessages` messages (one more when the oldest is a tool result, to keep its call), then retry once. */
export function reactiveTrim(
  host: RungHost,
  options: { keep: number; messages: readonly Message[]; iteration: number; attempt: number },
): void {
  const { messages, iteration } = options;
  const { keep } = options;
  const before = host.build(messages, iteration);
  const cut = reactiveCut({ messages, from: host.view.from, keep });
  const removed = cut === undefined ? 0 : cut - host.view.from;
  if (cut !== undefined) {
    host.view.trimmed += removed;
    host.view.from = cut;
  }
  const after = host.build(messages, iteration);
  host.step({
    iteration,
    step: 'hard_trim',
    trigger: 'overflow',
    ok: removed > 0,
    before: host.measure(before.messages),
    after: host.measure(after.messages),
    messagesBefore: before.messages.length,
    messagesAfter: after.messages.length,
    stubbed: [],
    reason:
      removed > 0
        ? `reactive compact: ${removed} oldest message${removed === 1 ? '' : 's'} dropped, the last ${messages.length - host.view.from} kept${
            messages.length - host.view.from > keep
              ? ` (the last ${keep}, and the call before the oldest of them, which a cut may not separate from its result)`
              : ''
          }`
        : `reactive compact: no cut drops anything while keeping the last ${keep} messages`,
    attempt: options.attempt,
  });
}

/** Rung 3: drop the oldest messages (never below the floor, never between a call and its result). */
export function hardTrim(
  host: RungHost,
  options: {
    floor: number;
    messages: readonly Message[];
    iteration: number;
    attempt: number;
    local: boolean;
  },
): void {
  const { messages, iteration } = options;
  const { floor } = options;
  const before = host.build(messages, iteration);
  const tokensBefore = host.measure(before.messages);
  const points = cutPoints(messages, host.view.from).filter((c) => messages.length - c >= floor);
  const why = options.local ? 'local hard trim (no summary could be made)' : 'hard trim';
  const startFrom = host.view.from;
  const startTrimmed = host.view.trimmed;
  for (const cut of points) {
    host.view.from = cut;
    host.view.trimmed = startTrimmed + (cut - startFrom);
    if (host.measure(host.build(messages, iteration).messages) <= host.threshold()) break;
  }
  const removed = host.view.from - startFrom;
  const after = host.build(messages, iteration);
  host.step({
    iteration,
    step: 'hard_trim',
    trigger: 'overflow',
    ok: removed > 0,
    before: tokensBefore,
    after: host.measure(after.messages),
    messagesBefore: before.messages.length,
    messagesAfter: after.messages.length,
    stubbed: [],
    reason:
      removed > 0
        ? `${why}: ${removed} oldest message${removed === 1 ? '' : 's'} dropped, ${messages.length - host.view.from} kept (floor ${floor})`
        : `${why}: the floor of ${floor} messages is reached`,
    attempt: options.attempt,
  });
}
