import type {
  AccountPolicy,
  MechanismId,
  RecoveryMechanismId,
  RecoveryOverrides,
  RetryPolicy,
  RunConfigInput,
} from '@/lib/protocol';
import { POLICY_KINDS } from '@/lib/protocol/retry-rules';
import { DEFAULTS as D } from './defaults';
import { type Mechanism, placeAfter } from './module';
import { MODULE_ABOUT } from './modules/about';

/**
 * The one table of mechanisms a person can switch off on their own: what the
 * sweeps' on/off axis, "run the counterfactual" and every lesson use. Pure data, browser-safe.
 */

export type { Mechanism, MechanismOff } from './module';

type RecoveryMechanism = Mechanism & { id: RecoveryMechanismId; off: { recovery: RecoveryOverrides } };

/** The mechanisms written here; the modules' rows come from their folders (lib/mechanisms/modules/about.ts). */
const CORE: Record<Exclude<RecoveryMechanismId, ModuleMechanismId>, RecoveryMechanism> = {
  retry: {
    id: 'retry',
    label: 'Retry ladder and backoff',
    off: { recovery: { retry: { enabled: false } } },
    lessonSlug: 'retry-ladder',
    oneLine:
      'A transient failure (429, 529, 5xx, network) is retried after a growing wait instead of ending the run.',
  },
  classifier: {
    id: 'classifier',
    label: 'Error classifier (what must not be retried)',
    off: { recovery: { retry: { retryOn: 'everything' } } },
    lessonSlug: 'classifier',
    oneLine:
      'Each error is classified from its vendor code, type, status and text; under the classifier’s rule (retry on: transient) an expired key, a missing permission, a bad request or a spent quota ends the call at once instead of being retried like a rate limit. CodeSmith’s exclusion rule ends only the first two at once.',
  },
  'retry-after': {
    id: 'retry-after',
    label: 'Retry-After honoured',
    off: { recovery: { retry: { honorRetryAfter: false } } },
    lessonSlug: 'retry-after',
    oneLine:
      'When the vendor says how long to wait, the loop waits that long instead of its own backoff guess.',
  },
  'one-retry-layer': {
    id: 'one-retry-layer',
    label: 'One retry layer',
    // Off: CodeSmith's two layers as its seed has them — an HTTP layer (here the SDK's own
    // retries, 3) beneath an engine layer that sleeps a fixed 2 s on rate limits.
    off: { recovery: { sdkMaxRetries: 3, retry: { backoff: 'fixed' } } },
    lessonSlug: 'retry-amplification',
    oneLine:
      'Failed requests are retried in one place, the loop’s ladder. Stack the SDK’s own retries beneath it and every loop attempt becomes up to 4 HTTP requests: one outage, many requests (retry amplification).',
  },
  watchdog: {
    id: 'watchdog',
    label: 'Stream idle watchdog',
    off: { recovery: { watchdog: { enabled: false } } },
    lessonSlug: 'stream-idle-watchdog',
    oneLine: `A stream that goes quiet (keepalives only) is aborted after ${D.watchdogBase} (+${D.watchdogPerRetry} per retry) and retried while nothing arrived (Empty).`,
  },
  'partial-kept': {
    id: 'partial-kept',
    label: 'Partial kept, not retried',
    // The engine keeps a Partial on the watchdog's path: with the watchdog off a cut stream is retried from scratch.
    off: { recovery: { watchdog: { enabled: false } } },
    lessonSlug: 'partial-vs-empty',
    oneLine:
      'A stream cut after content arrived (Partial) is kept and presented, not re-requested, so the same output is not billed twice.',
  },
  'stream-error-cap': {
    id: 'stream-error-cap',
    label: 'Stream error cap',
    // The cap cannot be 0 (it bounds the watchdog's free retries); off means out of reach.
    off: { recovery: { watchdog: { streamErrorCap: 50 } } },
    lessonSlug: 'stream-error-cap',
    oneLine: `${D.streamErrorCap} consecutive broken streams end the call, instead of spending the whole retry budget on a stream that keeps breaking.`,
  },
  fallback: {
    id: 'fallback',
    label: 'Fallback model',
    off: { recovery: { fallback: { enabled: false } } },
    lessonSlug: 'fallback-model',
    oneLine: `After ${D.fallbackAfter} consecutive overloaded (529) answers the call moves to the fallback model instead of waiting for the busy one.`,
  },
  'background-retry': {
    id: 'background-retry',
    label: 'Background retry account',
    off: { recovery: { background: { enabled: false } } },
    lessonSlug: 'background-retry',
    oneLine: `Auxiliary calls (titles, summaries) retry on their own account (${D.backgroundRetries} retries), so they neither fail at once nor eat the turn’s budget.`,
  },
  'loop-guard': {
    id: 'loop-guard',
    label: 'Loop guard',
    off: { recovery: { tools: { loopGuard: false } } },
    lessonSlug: 'loop-guard',
    oneLine: `Identical tool call #${D.blockRepeatAt} is blocked; ${D.warnAfterFailures} failures in a row draw a warning and ${D.haltAfterFailures} halt the run.`,
  },
  'failure-budget': {
    id: 'failure-budget',
    label: 'Failure budget and short-circuit',
    off: { recovery: { tools: { failureBudget: 100, shortCircuitRepeats: false } } },
    lessonSlug: 'failure-budget',
    oneLine: `A tool that failed ${D.failureBudget} times is disabled for the run, and an exact repeat of a failed call is answered without running it.`,
  },
  'safe-executor': {
    id: 'safe-executor',
    label: 'Safe executor (tool timeout)',
    off: { recovery: { tools: { safeExecutor: false } } },
    lessonSlug: 'specific-tool-errors',
    oneLine: `A tool that hangs is stopped after ${D.toolTimeout} and answers with a specific is_error result, so the loop carries on instead of waiting.`,
  },
  'arg-repair': {
    id: 'arg-repair',
    label: 'Tool-argument repair',
    off: { recovery: { tools: { repairJson: false, coerceArgs: false } } },
    lessonSlug: 'arg-repair',
    oneLine:
      'Malformed tool arguments are repaired where that is safe — the JSON text (trailing commas, single quotes, unquoted keys, a cut-off brace), then values the schema takes one way ("7" → 7) — before the model is asked again.',
  },
  'output-truncation': {
    id: 'output-truncation',
    label: 'Tool output truncation',
    off: { recovery: { tools: { truncateChars: 0 } } },
    lessonSlug: 'output-truncation',
    oneLine: `Tool output over ${D.truncateChars} characters is cut, with a note saying how to get the rest (offset, narrower pattern).`,
  },
  'prompt-caching': {
    id: 'prompt-caching',
    label: 'Prompt caching',
    off: { recovery: { cache: { promptCaching: false } } },
    lessonSlug: 'prompt-caching',
    oneLine:
      "The stable prefix (tools, system prompt, settled history) is marked for the vendor's prompt cache, so each request reads what the last one sent at a tenth of the input price (Anthropic; OpenAI caches long prefixes on its own at half).",
  },
  'old-result-compaction': {
    id: 'old-result-compaction',
    label: 'Old-result compaction',
    off: { recovery: { context: { oldResultCompaction: false } } },
    lessonSlug: 'old-result-compaction',
    oneLine: `Tool results over ${D.oldResultMinChars} characters older than the last ${D.keepRecentIterations} iterations are sent as a stub saying how to get them back.`,
  },
  'proactive-summary': {
    id: 'proactive-summary',
    label: 'Proactive summary',
    off: { recovery: { compaction: { proactive: false } } },
    lessonSlug: 'proactive-summary',
    oneLine: `When a request passes ${D.proactiveThreshold} of the window, older history is summarised before the vendor has to refuse it.`,
  },
  'overflow-waterfall': {
    id: 'overflow-waterfall',
    label: 'Context overflow waterfall',
    off: { recovery: { compaction: { waterfall: false } } },
    lessonSlug: 'overflow-waterfall',
    oneLine: `On "prompt too long": clear old tool results, then force a full summary, then trim the oldest messages (keeping ${D.trimFloor}) — ${D.waterfallBudget} tries.`,
  },
  'circuit-breaker': {
    id: 'circuit-breaker',
    label: 'Summary circuit breaker',
    off: { recovery: { compaction: { breaker: false } } },
    lessonSlug: 'circuit-breaker',
    oneLine: `After ${D.breakerFailures} failed summary calls in a row, compaction stops calling the model for ${D.breakerCooldown}; the waterfall’s local steps handle an overflow meanwhile.`,
  },
  'reactive-compact': {
    id: 'reactive-compact',
    label: 'Reactive compact (s11)',
    off: { recovery: { compaction: { reactive: false } } },
    lessonSlug: 'reactive-compact',
    oneLine: `On "prompt too long", keep at most the last ${D.reactiveKeep} messages and retry once (s11’s simpler answer to an overflow).`,
  },
  'output-escalation': {
    id: 'output-escalation',
    label: 'Output-cap escalation and continuations',
    off: { recovery: { output: { escalate: false, maxContinuations: 0 } } },
    lessonSlug: 'output-cap-escalation',
    oneLine: `An answer cut by the output cap is re-asked once with ${D.escalatedCap} tokens, then continued from where it stopped (at most ${D.maxContinuations} times).`,
  },
  'refuse-cut-calls': {
    id: 'refuse-cut-calls',
    label: 'Cut tool calls refused',
    off: { recovery: { output: { refuseCutToolCalls: false } } },
    lessonSlug: 'cut-tool-calls',
    oneLine:
      'A tool call cut by the output cap mid-arguments is refused and the model asked to resend it, instead of being repaired and run with half its input.',
  },
};

type ModuleMechanismId = (typeof MODULE_ABOUT)[number]['mechanism']['id'];

/** Every recovery mechanism in teaching order: each module's row after the one it names. */
const RECOVERY = Object.fromEntries(
  placeAfter<RecoveryMechanism, RecoveryMechanism>(
    Object.values(CORE),
    MODULE_ABOUT.map((about) => ({ items: [about.mechanism as RecoveryMechanism], after: about.after })),
    (m) => m.id,
  ).map((m) => [m.id, m]),
) as Record<RecoveryMechanismId, RecoveryMechanism>;

const TAKEOVER: Mechanism = {
  id: 'takeover-handling',
  label: 'Takeover: foreign credentials dropped',
  off: { takeover: { naive: true } },
  lessonSlug: 'takeover-credentials',
  oneLine:
    'On a vendor or model switch, thinking signatures travel only back to the vendor that minted them; naive sends history as it was.',
};

const SHIPPED_TESTS: Mechanism = {
  id: 'shipped-tests',
  label: 'Task verdict: the tests as shipped',
  off: { verdict: { tests: 'workspace' } },
  lessonSlug: 'rewritten-test',
  oneLine:
    "The task verdict runs the scenario's test files as it shipped them against the final workspace, so a model that rewrites a failing test gets no credit for it.",
};

const TOOL_APPROVAL: Mechanism = {
  id: 'tool-approval',
  label: 'Tool approval',
  off: { approval: false },
  lessonSlug: 'approval-denies-a-write',
  oneLine:
    'The tool calls the config names (all, writes, or named tools) wait for a decision before they run; a denial reaches the model as the call’s error result, and an approval with a timeout is denied when nobody decides in time.',
};

const MCP_RECONNECT: Mechanism = {
  id: 'mcp-reconnect',
  label: 'MCP: reconnect a lost server',
  off: { mcp: { reconnect: false } },
  lessonSlug: 'mcp-reconnect',
  oneLine:
    'When an MCP server crashes mid-call, the client starts it again after a bounded backoff on the run’s clock and re-lists its tools; off, the server is gone for the rest of the run.',
};

/** Every switchable mechanism, in teaching order. */
export const MECHANISMS: Record<MechanismId, Mechanism> = {
  ...RECOVERY,
  'takeover-handling': TAKEOVER,
  'shipped-tests': SHIPPED_TESTS,
  'tool-approval': TOOL_APPROVAL,
  'mcp-reconnect': MCP_RECONNECT,
};
export const MECHANISM_LIST: Mechanism[] = Object.values(MECHANISMS);

export function mechanismById(id: MechanismId): Mechanism {
  return MECHANISMS[id];
}

/** Merges an override group by group, so the mechanism's fields win and the rest stay. */
function mergeOverrides(base: RecoveryOverrides, off: RecoveryOverrides): RecoveryOverrides {
  const merged: Record<string, unknown> = { ...base };
  for (const [group, fields] of Object.entries(off)) {
    const current = merged[group];
    merged[group] =
      typeof current === 'object' && current !== null
        ? { ...(current as object), ...(fields as object) }
        : fields;
  }
  return merged as RecoveryOverrides;
}

/**
 * A configuration's overrides with one recovery mechanism switched off on top: the on/off axis
 * of a sweep, so a table row shows what that mechanism is worth under the same faults and seeds.
 */
export function withMechanismOff(overrides: RecoveryOverrides, id: RecoveryMechanismId): RecoveryOverrides {
  const merged = mergeOverrides(overrides, RECOVERY[id].off.recovery);
  return overrides.policy ? { ...merged, policy: policyWithMechanismOff(overrides.policy, id) } : merged;
}

/**
 * A written-out retry policy with one mechanism off: the same switch as the retry fields' (which
 * a policy replaces), so the on/off axis means the same on a sweep's policy axis.
 */
function policyWithMechanismOff(policy: RetryPolicy, id: RecoveryMechanismId): RetryPolicy {
  const noRetryAfter = (account: AccountPolicy): AccountPolicy => ({
    ...account,
    retryAfter: { ...account.retryAfter, honour: false },
    rows: Object.fromEntries(
      Object.entries(account.rows).map(([k, row]) => [
        k,
        row.retryAfter ? { ...row, retryAfter: { ...row.retryAfter, honour: false } } : row,
      ]),
    ),
  });
  switch (id) {
    case 'retry':
      return { ...policy, foreground: { ...policy.foreground, enabled: false } };
    case 'retry-after':
      return {
        ...policy,
        foreground: noRetryAfter(policy.foreground),
        background: noRetryAfter(policy.background),
      };
    case 'background-retry':
      return { ...policy, background: { ...policy.background, enabled: false } };
    case 'fallback':
      return { ...policy, fallback: { ...policy.fallback, enabled: false } };
    case 'classifier': {
      // Every kind retried, whatever the classifier says (retryOn: everything).
      const rows = { ...policy.foreground.rows };
      for (const [k, row] of Object.entries(rows))
        rows[k as keyof typeof rows] = { ...row!, action: 'retry' };
      for (const k of POLICY_KINDS) rows[k] ??= { action: 'retry' };
      return { ...policy, foreground: { ...policy.foreground, rows } };
    }
    default:
      // The others are not the policy's: the watchdog, the context channel, the tools; one retry
      // layer's off side stacks the SDK's retries beneath (sdkMaxRetries), the policy's backoff stays.
      return policy;
  }
}

/** The same run config (same seed, faults, everything) with one mechanism switched off: the counterfactual. */
export function configWithMechanismOff<
  C extends Pick<RunConfigInput, 'recovery' | 'takeover' | 'verdict' | 'pause'> & {
    mcp?: RunConfigInput['mcp'];
  },
>(config: C, id: MechanismId): C {
  const off = MECHANISMS[id].off;
  if ('approval' in off) {
    if (!config.pause) return config;
    const { approval: _dropped, ...pause } = config.pause;
    return { ...config, pause };
  }
  if ('mcp' in off)
    return config.mcp
      ? { ...config, mcp: { ...config.mcp, recovery: { ...config.mcp.recovery, ...off.mcp } } }
      : config;
  if ('takeover' in off) return { ...config, takeover: { ...config.takeover, ...off.takeover } };
  if ('verdict' in off) return { ...config, verdict: { ...config.verdict, ...off.verdict } };
  return { ...config, recovery: mergeOverrides(config.recovery ?? {}, off.recovery) };
}
