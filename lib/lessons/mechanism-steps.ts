import type { EventOf, MechanismId, RunEvent, TakeoverRule } from '@/lib/protocol';
import { MODULE_LESSONS } from '@/lib/mechanisms/modules/lesson';
import { of, sum, type MechanismSteps } from './count-steps';

export type { MechanismSteps } from './count-steps';

function waits(retries: EventOf<'retry_scheduled'>[], noun: [string, string]): MechanismSteps {
  return { count: retries.length, noun, waitedMs: sum(retries.map((r) => r.wait_ms)) };
}

/** What one change of each takeover safeguard is, in the words a lesson's report counts it by. */
const SAFEGUARD_NOUNS: Record<TakeoverRule, [string, string]> = {
  credentials: ['foreign credential held back at the switch', 'foreign credentials held back at the switch'],
  latest_turn: [
    'request with thinking asked off for the tool round in progress',
    'requests with thinking asked off for the tool round in progress',
  ],
  reasoning_placeholder: [
    'tool-call turn given the placeholder reasoning_content',
    'tool-call turns given the placeholder reasoning_content',
  ],
  handles: ['held history re-sent by value', 'held histories re-sent by value'],
};
const TAKEOVER_RULES = Object.keys(SAFEGUARD_NOUNS) as TakeoverRule[];

type ModuleId = (typeof MODULE_LESSONS)[number]['id'];

/** The counts written here; a mechanism module's count is in its folder (lesson.ts). */
const CORE: Record<Exclude<MechanismId, ModuleId>, (log: readonly RunEvent[]) => MechanismSteps> = {
  retry: (log) =>
    waits(
      of(log, 'retry_scheduled').filter((r) => r.account !== 'background' && r.account !== 'context'),
      ['retry', 'retries'],
    ),
  classifier: (log) => ({
    count: of(log, 'retry_declined').filter((d) => d.rule === 'not_retryable').length,
    noun: [
      'error not retried: it would fail the same way',
      'errors not retried: they would fail the same way',
    ],
  }),
  'retry-after': (log) =>
    waits(
      of(log, 'retry_scheduled').filter(
        (r) => r.retry_after_ms !== undefined && r.wait_ms === r.retry_after_ms,
      ),
      ['Retry-After wait honoured', 'Retry-After waits honoured'],
    ),
  // The one layer's own work: the loop's retries that backed off. Stacked under the SDK's
  // retries the engine layer sleeps a fixed 2 s or nothing (backoff_mode fixed), never backs off.
  'one-retry-layer': (log) =>
    waits(
      of(log, 'retry_scheduled').filter((r) => r.backoff !== undefined),
      ['retry backed off in the loop', 'retries backed off in the loop'],
    ),
  watchdog: (log) => {
    const fired = of(log, 'watchdog_fired');
    return {
      count: fired.length,
      noun: ['watchdog firing', 'watchdog firings'],
      waitedMs: sum(fired.map((f) => f.window_ms)),
    };
  },
  'partial-kept': (log) => ({
    count: of(log, 'llm_call').filter((c) => c.partial).length,
    noun: ['partial answer kept', 'partial answers kept'],
  }),
  'stream-error-cap': (log) => ({
    count: of(log, 'terminate').filter((t) => /consecutive stream errors/.test(t.message ?? '')).length,
    noun: ['call stopped by the cap', 'calls stopped by the cap'],
  }),
  // A fallback onto another vendor is a swap (cause "fallback"), not a fallback event.
  fallback: (log) => ({
    count: of(log, 'fallback').length + of(log, 'swap').filter((s) => s.cause === 'fallback').length,
    noun: ['switch to the fallback model', 'switches to the fallback model'],
  }),
  'background-retry': (log) =>
    waits(
      of(log, 'retry_scheduled').filter((r) => r.account === 'background'),
      ['background retry', 'background retries'],
    ),
  'loop-guard': (log) => ({
    count: of(log, 'tool_guard').filter((g) => g.kind === 'blocked' || g.kind === 'halt').length,
    noun: ['call blocked', 'calls blocked'],
  }),
  'failure-budget': (log) => ({
    count: of(log, 'tool_guard').filter((g) => g.kind === 'short_circuit' || g.kind === 'disabled').length,
    noun: ['repeat short-circuited or tool disabled', 'repeats short-circuited or tools disabled'],
  }),
  'safe-executor': (log) => {
    const timedOut = of(log, 'tool_call').filter((c) => c.status === 'timeout');
    return {
      count: timedOut.length,
      noun: ['tool call timed out', 'tool calls timed out'],
      waitedMs: sum(timedOut.map((c) => c.latency_ms)),
    };
  },
  'arg-repair': (log) => ({
    count: of(log, 'arg_repair').length,
    noun: ['argument repair', 'argument repairs'],
  }),
  'output-truncation': (log) => ({
    count: of(log, 'tool_call').filter((c) => (c.truncated_chars ?? 0) > 0).length,
    noun: ['tool result cut', 'tool results cut'],
  }),
  'prompt-caching': (log) => ({
    count: of(log, 'llm_call').filter((c) => (c.cache_read_tokens ?? 0) > 0).length,
    noun: ['request read from the prompt cache', 'requests read from the prompt cache'],
  }),
  'old-result-compaction': (log) => ({
    count: sum(
      of(log, 'compaction')
        .filter((c) => c.step === 'old_results')
        .map((c) => c.stubbed.length),
    ),
    noun: ['old result stubbed', 'old results stubbed'],
  }),
  'proactive-summary': (log) => ({
    count: of(log, 'compaction').filter((c) => c.step === 'summary' && c.trigger === 'proactive' && c.ok)
      .length,
    noun: ['proactive summary', 'proactive summaries'],
  }),
  'overflow-waterfall': (log) => ({
    count: of(log, 'context_recovered').length,
    noun: ['overflow recovered', 'overflows recovered'],
  }),
  'circuit-breaker': (log) => ({
    count: of(log, 'compaction').filter((c) => c.reason?.startsWith('circuit breaker open')).length,
    noun: ['summary call skipped by the open breaker', 'summary calls skipped by the open breaker'],
  }),
  'reactive-compact': (log) => ({
    count: of(log, 'compaction').filter(
      (c) => c.step === 'hard_trim' && c.reason?.startsWith('reactive compact') && c.ok,
    ).length,
    noun: ['reactive compact', 'reactive compacts'],
  }),
  'output-escalation': (log) => ({
    count: of(log, 'output_recovery').filter((o) => o.action === 'escalate' || o.action === 'continue')
      .length,
    noun: ['escalation or continuation', 'escalations and continuations'],
  }),
  // Naive handling is the mechanism off: what a naive rendering could not carry is not its work.
  'refuse-cut-calls': (log) => ({
    count: sum(
      of(log, 'output_recovery')
        .filter((o) => o.action === 'refuse_truncated')
        .map((o) => o.refused?.length ?? 0),
    ),
    noun: ['cut tool call refused', 'cut tool calls refused'],
  }),
  // Each safeguard's own changes, as the renderer that applied it counted them (the report's `safeguards`).
  'takeover-handling': (log) => {
    const reports = of(log, 'takeover_report').filter((r) => !r.handling.naive);
    const parts = TAKEOVER_RULES.map((rule) => ({
      count: sum(reports.map((r) => r.safeguards?.[rule]?.applied ?? 0)),
      noun: SAFEGUARD_NOUNS[rule],
    })).filter((p) => p.count > 0);
    return {
      count: sum(parts.map((p) => p.count)),
      noun: ['safeguard step at the switch', 'safeguard steps at the switch'],
      parts,
    };
  },
  'shipped-tests': (log) => ({
    count: sum(
      of(log, 'task_verdict')
        .filter((v) => v.tests_run === 'shipped')
        .map((v) => v.tests_edited?.length ?? 0),
    ),
    noun: ['edited test set aside by the verdict', 'edited tests set aside by the verdict'],
  }),
  // Each decision on a call that waited for approval (approved, denied or edited; by a person or the timeout).
  'tool-approval': (log) => ({
    count: of(log, 'tool_approval').length,
    noun: ['tool call decided before it ran', 'tool calls decided before they ran'],
  }),
  // A server the client brought back: each reconnected decision of an MCP server.
  'mcp-reconnect': (log) => ({
    count: of(log, 'mechanism_decision').filter(
      (d) => d.mechanism.startsWith('mcp:') && d.decision === 'reconnected',
    ).length,
    noun: ['MCP server reconnected', 'MCP servers reconnected'],
  }),
};

const COUNTERS = {
  ...CORE,
  ...Object.fromEntries(MODULE_LESSONS.map((m) => [m.id, m.steps])),
} as Record<MechanismId, (log: readonly RunEvent[]) => MechanismSteps>;

/** The mechanism's own steps in a run's log. */
export function mechanismSteps(id: MechanismId, log: readonly RunEvent[]): MechanismSteps {
  return COUNTERS[id](log);
}
