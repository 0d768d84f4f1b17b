import type { CompactionStep } from '@/lib/protocol';
import type { Emit } from '../event-log';
import type { BreakerTransition } from './circuit-breaker';

/** One context step as the channel reports it (tokens are the meter's estimates). */
export interface CompactionRecord {
  iteration: number;
  step: CompactionStep;
  trigger: 'routine' | 'proactive' | 'overflow' | 'manual';
  ok: boolean;
  before: number;
  after: number;
  messagesBefore: number;
  messagesAfter: number;
  stubbed: ReadonlyArray<{ callId: string; tool: string; chars: number; iteration: number }>;
  reason: string;
  summary?: string;
  attempt?: number;
  /** Messages of the last request that open the next one unchanged, when the step changed an earlier one (prompt caching on). */
  cacheKept?: number;
  /** The cache-protection floor's decision on a summary step. */
  cacheFloor?: { decision: 'held_back' | 'bypassed'; cachedTokens: number; floorTokens: number };
}

/** The `compaction` event: what a step did to the request copy, tokens before → after. */
export function emitCompaction(emit: Emit, record: CompactionRecord): void {
  emit({
    event: 'compaction',
    iteration: record.iteration,
    step: record.step,
    trigger: record.trigger,
    ok: record.ok,
    tokens_before: record.before,
    tokens_after: record.after,
    messages_before: record.messagesBefore,
    messages_after: record.messagesAfter,
    stubbed: record.stubbed.map((s) => ({
      call_id: s.callId,
      tool: s.tool,
      chars: s.chars,
      iteration: s.iteration,
    })),
    ...(record.summary !== undefined ? { summary: record.summary } : {}),
    reason: record.reason,
    ...(record.attempt !== undefined ? { recovery_attempt: record.attempt } : {}),
    ...(record.cacheKept !== undefined ? { cache_kept_messages: record.cacheKept } : {}),
    ...(record.cacheFloor
      ? {
          cache_floor: {
            decision: record.cacheFloor.decision,
            cached_tokens: record.cacheFloor.cachedTokens,
            floor_tokens: record.cacheFloor.floorTokens,
          },
        }
      : {}),
  });
}

/** The `breaker` event: a counted failure or a change of state. */
export function emitBreaker(emit: Emit, iteration: number, transition: BreakerTransition): void {
  emit({
    event: 'breaker',
    iteration,
    state: transition.state,
    consecutive_failures: transition.consecutiveFailures,
    ...(transition.reopenAt !== undefined ? { reopen_at: transition.reopenAt } : {}),
    reason: transition.reason,
  });
}
