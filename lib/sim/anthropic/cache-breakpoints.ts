import { invalidRequest, isRecord } from '../rejection';
import { MAX_BREAKPOINTS, type PromptPrefix } from '../prompt-cache';

const TTL_MS: Record<string, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };

/** A `cache_control` marker: the block it ends the cached prefix at, and how long that prefix lives. */
export interface CacheBreakpoint {
  block: number;
  ttlMs: number;
}

function marker(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value))
    throw invalidRequest(
      `${where}.cache_control: Input should be a valid dictionary or object to extract fields from`,
    );
  if (value.type !== 'ephemeral')
    throw invalidRequest(`${where}.cache_control.type: Input should be 'ephemeral'`);
  if (value.ttl === undefined) return TTL_MS['5m'];
  const ttl = typeof value.ttl === 'string' ? TTL_MS[value.ttl] : undefined;
  if (ttl === undefined)
    throw invalidRequest(`${where}.cache_control.ephemeral.ttl: Input should be '5m' or '1h'`);
  return ttl;
}

/**
 * The `cache_control` markers of a Messages request (tools, system blocks, message content
 * blocks), as block indexes of its prompt prefix, in prompt order. More than four is the
 * vendor's 400; a marker on a thinking block is refused as the vendor refuses it.
 */
export function cacheBreakpoints(raw: Record<string, unknown>, prefix: PromptPrefix): CacheBreakpoint[] {
  const found: CacheBreakpoint[] = [];
  const add = (block: number, ttlMs: number | undefined): void => {
    if (ttlMs !== undefined) found.push({ block, ttlMs });
  };
  if (Array.isArray(raw.tools))
    raw.tools.forEach((tool, i) => isRecord(tool) && add(i, marker(tool.cache_control, `tools.${i}`)));
  if (Array.isArray(raw.system))
    raw.system.forEach(
      (block, i) => isRecord(block) && add(prefix.systemAt, marker(block.cache_control, `system.${i}`)),
    );
  if (Array.isArray(raw.messages)) {
    raw.messages.forEach((message, i) => {
      if (!isRecord(message) || !Array.isArray(message.content)) return;
      message.content.forEach((block, j) => {
        if (!isRecord(block)) return;
        const ttl = marker(block.cache_control, `messages.${i}.content.${j}`);
        if (ttl !== undefined && (block.type === 'thinking' || block.type === 'redacted_thinking')) {
          throw invalidRequest(
            `messages.${i}.content.${j}.${block.type}.cache_control: Extra inputs are not permitted`,
          );
        }
        add(prefix.messageStart[i]! + j, ttl);
      });
    });
  }
  if (found.length > MAX_BREAKPOINTS)
    throw invalidRequest(
      `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${found.length}.`,
    );
  return found.sort((a, b) => a.block - b.block);
}
