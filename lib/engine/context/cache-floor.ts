import type { RecoveryConfig } from '@/lib/protocol';
import type { CompactionRecord } from './context-events';

export interface CacheFloorDecision {
  decision: 'held_back' | 'bypassed';
  reason: string;
  record: NonNullable<CompactionRecord['cacheFloor']>;
}

/**
 * The cache-protection floor, for a summary about to run: undefined when it does not apply
 * (caching off, no floor, a warm prefix under it, or Compact now, which a person asked for);
 * else held back, or bypassed by the overflow waterfall's forced compaction.
 */
export function cacheFloorCheck(
  cache: RecoveryConfig['cache'],
  trigger: 'proactive' | 'overflow' | 'manual',
  cachedTokens: number,
): CacheFloorDecision | undefined {
  const { promptCaching, protectionFloorTokens: floorTokens, forcedBypassesFloor } = cache;
  if (!promptCaching || floorTokens === 0 || trigger === 'manual' || cachedTokens < floorTokens)
    return undefined;
  const warm = `the last request read ${cachedTokens} tokens from the prompt cache (floor ${floorTokens})`;
  if (trigger === 'overflow' && forcedBypassesFloor) {
    return {
      decision: 'bypassed',
      reason: `a forced compaction bypasses the cache-protection floor: ${warm}, but the prompt no longer fits`,
      record: { decision: 'bypassed', cachedTokens, floorTokens },
    };
  }
  const next =
    trigger === 'overflow' ? 'the waterfall goes on to its next rung' : 'the history is sent as it is';
  return {
    decision: 'held_back',
    reason: `held back by the cache-protection floor: ${warm}, and a summary would rewrite that prefix; ${next}`,
    record: { decision: 'held_back', cachedTokens, floorTokens },
  };
}
