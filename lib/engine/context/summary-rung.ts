import type { Message, RecoveryConfig } from '@/lib/protocol';
import { answerText, backgroundCall } from '../background-call';
import type { RunBinding } from '../binding';
import type { EngineDeps } from '../engine-deps';
import type { CallResult, CallState } from '../model-call';
import { cacheFloorCheck } from './cache-floor';
import type { BreakerTransition, CircuitBreaker } from './circuit-breaker';
import type { CompactionRecord } from './context-events';
import { cutPoints } from './context-view';
import { SUMMARY_SYSTEM, summaryTranscript } from './summary-request';
import type { RungHost } from './trim-rungs';

/** What a summary call needs of the run: its binding and recovery, the call state, and where an answered call is counted. */
export interface SummaryDeps extends EngineDeps {
  /** The run's binding: the window follows its model, the summary call goes to its provider. */
  binding: RunBinding;
  recovery: RecoveryConfig;
  state: CallState;
  /** Counts a background call that answered in the run's totals (an llm_call event). */
  recordBackground: (result: CallResult, iteration: number, purpose: string) => void;
}

/** The context channel as a full compaction sees it: the rungs' host, the run's dependencies and the summary breaker. */
export interface SummaryHost extends RungHost {
  deps: SummaryDeps;
  breaker: CircuitBreaker;
  recordBreaker(iteration: number, transition: BreakerTransition): void;
  /** What the vendor said the last foreground request read from its prompt cache. */
  lastCacheRead(): number;
}

export type SummaryTrigger = 'proactive' | 'overflow' | 'manual';

/**
 * A full compaction: a summary call replaces the history before the newest messages. The
 * proactive and overflow triggers go through the breaker; a manual one bypasses it.
 */
export async function summarizeHistory(
  host: SummaryHost,
  options: {
    messages: readonly Message[];
    iteration: number;
    trigger: SummaryTrigger;
    attempt?: number;
  },
): Promise<'done' | 'skipped' | 'failed'> {
  const { messages, iteration, trigger } = options;
  const { deps } = host;
  const config = deps.recovery.compaction;
  const before = host.build(messages, iteration);
  const tokensBefore = host.measure(before.messages);
  const fail = (
    reason: string,
    outcome: 'skipped' | 'failed',
    cacheFloor?: CompactionRecord['cacheFloor'],
  ): 'skipped' | 'failed' => {
    host.step({
      ...(cacheFloor ? { cacheFloor } : {}),
      iteration,
      step: 'summary',
      trigger,
      ok: false,
      before: tokensBefore,
      after: tokensBefore,
      messagesBefore: before.messages.length,
      messagesAfter: before.messages.length,
      stubbed: [],
      reason,
      attempt: options.attempt,
    });
    return outcome;
  };
  const keep = config.keepRecentMessages;
  const cut = cutPoints(messages, host.view.from)
    .filter((c) => messages.length - c >= keep)
    .at(-1);
  if (cut === undefined)
    return fail(`nothing old enough to summarise (the newest ${keep} messages are always kept)`, 'skipped');
  const floor = cacheFloorCheck(deps.recovery.cache, trigger, host.lastCacheRead());
  if (floor?.decision === 'held_back') return fail(floor.reason, 'skipped', floor.record);
  if (config.breaker && trigger !== 'manual') {
    const { verdict, transition } = host.breaker.check(deps.clock.now());
    if (transition) host.recordBreaker(iteration, transition);
    if (!verdict.allowed) return fail(verdict.reason, 'failed');
  }
  const transcript = summaryTranscript({
    previousSummary: host.view.summary?.text,
    messages: messages.slice(host.view.from, cut),
  });
  const answer = await backgroundCall({
    binding: deps.binding,
    system: SUMMARY_SYSTEM,
    messages: [{ role: 'user', parts: [{ type: 'text', text: transcript }] }],
    maxTokens: config.summaryMaxTokens,
    recovery: deps.recovery,
    state: deps.state,
    clock: deps.clock,
    random: deps.random,
    emit: deps.emit,
    signal: deps.signal,
    probe: deps.probe,
    iteration,
    purpose: 'summary',
  });
  if (answer) deps.recordBackground(answer, iteration, 'summary');
  const text = answerText(answer);
  if (text === undefined) {
    if (config.breaker) host.recordBreaker(iteration, host.breaker.failure(deps.clock.now()));
    return fail('the summary call failed', 'failed');
  }
  if (config.breaker) {
    const closed = host.breaker.success();
    if (closed) host.recordBreaker(iteration, closed);
  }
  const covered = cut - host.view.from;
  host.view.from = cut;
  host.view.summary = { text, iteration };
  host.view.trimmed = 0;
  const after = host.build(messages, iteration);
  host.step({
    iteration,
    step: 'summary',
    trigger,
    ok: true,
    before: tokensBefore,
    after: host.measure(after.messages),
    messagesBefore: before.messages.length,
    messagesAfter: after.messages.length,
    stubbed: [],
    summary: text,
    reason: `${floor ? `${floor.reason}; ` : ''}${covered} message${covered === 1 ? '' : 's'} replaced by a summary`,
    attempt: options.attempt,
    ...(floor ? { cacheFloor: floor.record } : {}),
  });
  return 'done';
}
