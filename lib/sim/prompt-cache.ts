import { createHash } from 'node:crypto';
import type { Clock } from '@/lib/clock';
import type { Message, PromptCacheInfo } from '@/lib/protocol';
import { countTokens } from '@/lib/tokens/count-tokens';
import { PER_MESSAGE_TOKENS, partTokens } from '@/lib/tokens/request-tokens';
import { exactToolTokens } from './request-tokens';
import type { PolicyTool } from './types';

/**
 * A simulated vendor's prompt cache, one per run and vendor, with the vendors' documented rules.
 * A prompt is a sequence of blocks in the order the vendor processes them (tools, system, then
 * every message part); a prefix is identified by a hash chained over its blocks, so a changed
 * byte changes the identity of every prefix that contains it: everything after it misses.
 *
 * Anthropic (`breakpoints`): only prefixes ending at a `cache_control` breakpoint are written, if
 * at least the model's minimum long; a read is the longest cached prefix found at a breakpoint or
 * up to 20 blocks before one; every prefix lives 5 minutes of run time, refreshed by a hit.
 * OpenAI (`automatic`): every prefix of a prompt of 1,024 tokens or more is kept; a read is the
 * longest cached prefix, counted from 1,024 in 128-token steps.
 */

/** Blocks before a breakpoint the vendor looks back through for an earlier cached prefix. */
export const LOOKBACK_BLOCKS = 20;
/** Anthropic's limit of breakpoints in one request. */
export const MAX_BREAKPOINTS = 4;

export interface PromptPrefix {
  /** hashes[k]: the identity of the first k blocks (hashes[0] is the model's empty prefix). */
  hashes: string[];
  /** tokens[k]: the tokens of the first k blocks; the last is the whole prompt. */
  tokens: number[];
  /** Where each message's blocks begin: message i's first block is blocks[messageStart[i]]. */
  messageStart: number[];
  /** The index of the first system block (the system prompt is one block); tools come before it. */
  systemAt: number;
}

/** What the vendor reports for one request: input served from its cache, written to it, and the rest. */
export interface CacheUsage {
  read: number;
  written: number;
  /** Input neither read nor written: `input_tokens` in Anthropic's usage. */
  uncached: number;
}

/**
 * The previous request's blocks on one run's vendor, with the identity and tokens each was given:
 * an agent's next request repeats its last one and adds to it, so the blocks a request shares with
 * it from the start are not hashed and counted again (a block is reused only while every block
 * before it was too, and its text is compared whole, so the result is the same as without).
 */
export class PrefixMemo {
  model = '';
  /** The model's empty prefix: hashes[0]. */
  seed = '';
  texts: string[] = [];
  hashes: string[] = [];
  counts: number[] = [];
}

/** The blocks of a neutral request, with the same token structure the vendor reports (lib/tokens). */
export function promptPrefix(
  request: {
    model: string;
    system: string;
    tools: readonly PolicyTool[];
    messages: readonly Message[];
  },
  memo?: PrefixMemo,
): PromptPrefix {
  const hashes: string[] = [];
  const tokens: number[] = [];
  const messageStart: number[] = [];
  const texts: string[] = [];
  const counts: number[] = [];
  let same = memo !== undefined && memo.model === request.model;
  let hash = same ? memo!.seed : chain('', `model:${request.model}`);
  let total = 0;
  const push = (text: string, count: () => number): void => {
    const block = texts.length;
    same &&= memo!.texts[block] === text;
    const n = same ? memo!.counts[block]! : count();
    hash = same ? memo!.hashes[block]! : chain(hash, text);
    total += n;
    texts.push(text);
    counts.push(n);
    hashes.push(hash);
    tokens.push(total);
  };
  hashes.push(hash);
  tokens.push(0);
  for (const tool of request.tools)
    push(`tool:${tool.name}\u0000${tool.description}\u0000${JSON.stringify(tool.inputSchema)}`, () =>
      exactToolTokens(tool),
    );
  const systemAt = hashes.length - 1;
  push(`system:${request.system}`, () => countTokens(request.system));
  for (const message of request.messages) {
    messageStart.push(hashes.length - 1);
    if (message.parts.length === 0) {
      push(`${message.role}:`, () => PER_MESSAGE_TOKENS);
      continue;
    }
    message.parts.forEach((part, i) =>
      push(
        `${i === 0 ? message.role : ''}:${JSON.stringify(part)}`,
        () => partTokens(part, countTokens) + (i === 0 ? PER_MESSAGE_TOKENS : 0),
      ),
    );
  }
  if (memo) {
    memo.model = request.model;
    memo.seed = hashes[0]!;
    memo.texts = texts;
    memo.hashes = hashes.slice(1);
    memo.counts = counts;
  }
  return { hashes, tokens, messageStart, systemAt };
}

export class PromptCache {
  private readonly entries = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  /**
   * One Anthropic request: `breakpoints` are block indexes carrying `cache_control` (each
   * with its TTL), checked against the limit by the caller. Reads, writes and refreshes.
   */
  breakpoints(
    prefix: PromptPrefix,
    breakpoints: readonly { block: number; ttlMs: number }[],
    rules: PromptCacheInfo,
  ): CacheUsage {
    const now = this.clock.now();
    const total = prefix.tokens[prefix.tokens.length - 1] ?? 0;
    let readAt = 0;
    for (const { block } of breakpoints) {
      const end = block + 1;
      for (let k = end; k >= Math.max(1, end - LOOKBACK_BLOCKS); k--) {
        if (k <= readAt) break;
        if (this.live(prefix.hashes[k]!, now)) {
          readAt = k;
          break;
        }
      }
    }
    const read = prefix.tokens[readAt]!;
    let writtenTo = read;
    for (const { block, ttlMs } of breakpoints) {
      const end = block + 1;
      const length = prefix.tokens[end]!;
      if (length < rules.minTokens) continue;
      this.entries.set(prefix.hashes[end]!, now + ttlMs);
      writtenTo = Math.max(writtenTo, length);
    }
    if (readAt > 0) {
      // A hit refreshes the prefix it read (a write above may already have given it a longer life).
      const hit = prefix.hashes[readAt]!;
      this.entries.set(hit, Math.max(this.entries.get(hit) ?? 0, now + rules.ttlMs));
    }
    this.prune(now);
    return { read, written: writtenTo - read, uncached: total - writtenTo };
  }

  /** One OpenAI request: the longest cached prefix is read (in the vendor's steps); every prefix of a long prompt is kept. */
  automatic(prefix: PromptPrefix, rules: PromptCacheInfo): CacheUsage {
    const now = this.clock.now();
    const total = prefix.tokens[prefix.tokens.length - 1] ?? 0;
    if (total < rules.minTokens) return { read: 0, written: 0, uncached: total };
    let matched = 0;
    for (let k = prefix.hashes.length - 1; k > 0; k--) {
      if (prefix.tokens[k]! < rules.minTokens) break;
      if (this.live(prefix.hashes[k]!, now)) {
        matched = prefix.tokens[k]!;
        break;
      }
    }
    for (let k = 1; k < prefix.hashes.length; k++)
      if (prefix.tokens[k]! >= rules.minTokens) this.entries.set(prefix.hashes[k]!, now + rules.ttlMs);
    this.prune(now);
    const read =
      matched < rules.minTokens
        ? 0
        : rules.minTokens + Math.floor((matched - rules.minTokens) / rules.stepTokens) * rules.stepTokens;
    return { read, written: 0, uncached: total - read };
  }

  private live(hash: string, now: number): boolean {
    const expires = this.entries.get(hash);
    return expires !== undefined && expires > now;
  }

  /** Expired prefixes are dropped once the map is large, so a long run holds only what can still hit. */
  private prune(now: number): void {
    if (this.entries.size < 4_096) return;
    for (const [hash, expires] of this.entries) if (expires <= now) this.entries.delete(hash);
  }
}

/** The identity of a prefix one block longer: a digest of the shorter prefix's digest and the block. */
function chain(seed: string, text: string): string {
  return createHash('sha1').update(seed).update(text).digest('base64');
}
