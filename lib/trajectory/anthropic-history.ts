import type Anthropic from '@anthropic-ai/sdk';
import type { Message, TakeoverHandling, Vendor } from '@/lib/protocol';
import { renderAnthropicMessage, type PlacedBlock } from './anthropic-content';
import type { ReportCall } from './render-report';

/** The conversation as the Messages API takes it, and what rendering each message reported (in order). */
export interface RenderedHistory {
  messages: Anthropic.MessageParam[];
  calls: (readonly ReportCall[])[];
}

export interface HistoryContext {
  vendor: Vendor;
  model: string;
  handling: TakeoverHandling;
  /** The cache key of the target (renderTarget): everything a part's rendering depends on besides the part. */
  target: string;
}

/** The last rendering of a conversation, kept so the next request only renders what changed. */
interface LastRendering {
  target: string;
  input: readonly Message[];
  messages: Anthropic.MessageParam[];
  calls: (readonly ReportCall[])[];
  /** Per input message: the index of the group its first block opened, or -1 when it opened none (it joined the group before, or rendered nothing). */
  opened: number[];
}

/** Keyed by the conversation's first message: one entry per run (and per background conversation). */
const lastRenderings = new WeakMap<Message, LastRendering>();

/**
 * Renders a conversation and joins consecutive blocks of one role into one message: the API
 * wants roles to alternate, and tool results for one assistant turn in the single user
 * message after it (tool results first). Each request carries the whole history again, and
 * the history only grows at the end between most requests, so the messages before the last
 * place where both renderings start a fresh group are taken from the last rendering as they
 * are — the same objects, never changed once handed out — and only the rest is joined anew.
 */
export function renderAnthropicHistory(input: readonly Message[], context: HistoryContext): RenderedHistory {
  const first = input[0];
  const last = first ? lastRenderings.get(first) : undefined;
  const from = last && last.target === context.target ? reusableFrom(last, input) : 0;

  const keptGroups = from > 0 ? last!.opened[from]! : 0;
  const messages = from > 0 ? last!.messages.slice(0, keptGroups) : [];
  const calls = from > 0 ? last!.calls.slice(0, from) : [];
  const opened = from > 0 ? last!.opened.slice(0, from) : [];
  for (let i = from; i < input.length; i++) {
    const rendered = renderAnthropicMessage(input[i]!, context);
    calls.push(rendered.calls);
    opened.push(join(messages, rendered.blocks));
  }
  for (let g = keptGroups; g < messages.length; g++) {
    const group = messages[g]!;
    if (group.role === 'user')
      group.content = toolResultsFirst(group.content as Anthropic.ContentBlockParam[]);
  }
  if (first)
    lastRenderings.set(first, { target: context.target, input: [...input], messages, calls, opened });
  return { messages, calls };
}

/**
 * The index of the first message to render again: the latest message, within the prefix both
 * conversations share, that opened a group of its own. Groups before it are final.
 */
function reusableFrom(last: LastRendering, input: readonly Message[]): number {
  const limit = Math.min(last.input.length, input.length);
  let shared = 0;
  while (shared < limit && last.input[shared] === input[shared]) shared++;
  // Message i must be the same in both, so that it opens its group again and leaves the ones before it untouched.
  for (let i = shared - 1; i > 0; i--) if (last.opened[i]! >= 0) return i;
  return 0;
}

/** Appends one message's blocks; returns the index of the group its first block opened, or -1. */
function join(groups: Anthropic.MessageParam[], blocks: readonly PlacedBlock[]): number {
  let opened = -1;
  for (let b = 0; b < blocks.length; b++) {
    const { role, block } = blocks[b]!;
    const tail = groups[groups.length - 1];
    if (tail && tail.role === role) {
      (tail.content as Anthropic.ContentBlockParam[]).push(block);
    } else {
      if (b === 0) opened = groups.length;
      groups.push({ role, content: [block] });
    }
  }
  return opened;
}

/** Reorders only when a tool result follows another block: the usual user message needs no copy. */
function toolResultsFirst(blocks: Anthropic.ContentBlockParam[]): Anthropic.ContentBlockParam[] {
  let other = false;
  let outOfOrder = false;
  for (const block of blocks) {
    if (block.type !== 'tool_result') other = true;
    else if (other) outOfOrder = true;
  }
  if (!outOfOrder) return blocks;
  return [
    ...blocks.filter((b) => b.type === 'tool_result'),
    ...blocks.filter((b) => b.type !== 'tool_result'),
  ];
}
