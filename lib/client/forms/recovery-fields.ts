import type { RecoveryConfig, RecoveryOverrides } from '@/lib/protocol';
import { MODULE_ABOUT } from '@/lib/mechanisms/modules/about';

/**
 * The recovery parameters the control panel edits, grouped by mechanism, each with a one-
 * line meaning. Defaults come from the chosen preset (resolveRecovery); only fields that
 * differ are sent as overrides.
 */

export type Section = Exclude<keyof RecoveryConfig, 'sdkMaxRetries'>;
export type FieldKind = 'bool' | 'int' | 'ms' | 'ratio' | 'enum' | 'text';

export interface RecoveryField {
  /** `retry.maxRetries`, or `sdkMaxRetries` for the one top-level field. */
  path: string;
  section: Section | 'sdk';
  key: string;
  label: string;
  meaning: string;
  kind: FieldKind;
  options?: readonly string[];
}

export interface RecoveryGroup {
  id: Section | 'sdk';
  title: string;
  fields: readonly RecoveryField[];
}

function f(
  section: Section,
  key: string,
  label: string,
  kind: FieldKind,
  meaning: string,
  options?: readonly string[],
): RecoveryField {
  return { path: `${section}.${key}`, section, key, label, kind, meaning, options };
}

const CORE_GROUPS: readonly RecoveryGroup[] = [
  {
    id: 'retry',
    title: 'Retry & backoff',
    fields: [
      f('retry', 'enabled', 'retry', 'bool', 'retry failed model calls within a budget'),
      f('retry', 'maxRetries', 'max retries', 'int', 'retries after the first attempt of one call'),
      f('retry', 'baseDelayMs', 'base delay', 'ms', 'first backoff wait; doubles each retry'),
      f('retry', 'maxDelayMs', 'max delay', 'ms', 'cap on one backoff wait'),
      f('retry', 'jitterMode', 'jitter mode', 'enum', 'symmetric: ±ratio; additive: +0…ratio', [
        'symmetric',
        'additive',
      ]),
      f('retry', 'jitterRatio', 'jitter ratio', 'ratio', 'how much randomness spreads the waits'),
      f('retry', 'honorRetryAfter', 'honour Retry-After', 'bool', 'wait as long as the server asks'),
      f('retry', 'retryAfterCapMs', 'Retry-After cap', 'ms', 'longest server-requested wait honoured'),
      f(
        'retry',
        'retryOn',
        'retry on',
        'enum',
        'exclusion: all but auth/permission/context (CodeSmith); transient: also not a bad request or a spent quota (the classifier); rate_limit_overloaded: only 429 and 529; everything: the classifier ignored',
        ['exclusion', 'transient', 'rate_limit_overloaded', 'everything'],
      ),
      f(
        'retry',
        'backoff',
        'backoff',
        'enum',
        'exponential: base·2ⁿ with jitter; fixed: a rate limit sleeps the fixed delay, anything else retries at once',
        ['exponential', 'fixed'],
      ),
      f(
        'retry',
        'fixedDelayMs',
        'fixed delay',
        'ms',
        'the sleep on a rate limit in fixed mode (Retry-After not read)',
      ),
    ],
  },
  {
    id: 'sdk',
    title: 'SDK retries',
    fields: [
      {
        path: 'sdkMaxRetries',
        section: 'sdk',
        key: 'sdkMaxRetries',
        label: 'SDK max retries',
        kind: 'int',
        meaning:
          "the vendor SDK's own retries beneath the loop's: each is an HTTP request of its own (sdk_retry)",
      },
    ],
  },
  {
    id: 'watchdog',
    title: 'Stream idle watchdog',
    fields: [
      f('watchdog', 'enabled', 'watchdog', 'bool', 'abort a stream that stops sending content'),
      f('watchdog', 'baseMs', 'window', 'ms', 'silence allowed before the stream is cut'),
      f('watchdog', 'perRetryMs', 'per retry', 'ms', 'window grows by this for each retry spent'),
      f(
        'watchdog',
        'streamErrorCap',
        'stream error cap',
        'int',
        'consecutive stream errors before failing (at least 1; bounds the Empty retries)',
      ),
    ],
  },
  {
    id: 'fallback',
    title: 'Fallback model',
    fields: [
      f('fallback', 'enabled', 'fallback', 'bool', 'switch model after repeated overloads'),
      f('fallback', 'afterOverloads', 'after overloads', 'int', 'consecutive 529s before switching'),
      f('fallback', 'model', 'model', 'text', "model to switch to (empty: vendor's fallback)"),
    ],
  },
  {
    id: 'background',
    title: 'Background calls',
    fields: [
      f(
        'background',
        'enabled',
        'background retry',
        'bool',
        'summaries and titles get their own retry account',
      ),
      f('background', 'maxRetries', 'max retries', 'int', 'retries for one background call'),
      f('background', 'baseDelayMs', 'base delay', 'ms', 'first backoff wait of a background call'),
    ],
  },
  {
    id: 'tools',
    title: 'Tool safety',
    fields: [
      f('tools', 'safeExecutor', 'safe executor', 'bool', 'tool errors return as results, never throw'),
      f('tools', 'failureBudget', 'failure budget', 'int', 'failures before a tool is disabled for the run'),
      f(
        'tools',
        'shortCircuitRepeats',
        'short-circuit repeats',
        'bool',
        'an exact repeat of a failed call is not run again',
      ),
      f('tools', 'timeoutMs', 'tool timeout', 'ms', 'longest a tool may run'),
      f('tools', 'truncateChars', 'truncate output', 'int', 'cut tool output over this many chars (0 = off)'),
      f(
        'tools',
        'loopGuard',
        'loop guard',
        'bool',
        'block repeated identical calls, halt on failure streaks',
      ),
      f('tools', 'blockRepeatAt', 'block repeat at', 'int', 'the Nth identical call is blocked'),
      f('tools', 'warnAfterFailures', 'warn after', 'int', 'consecutive failures before a warning'),
      f('tools', 'haltAfterFailures', 'halt after', 'int', 'consecutive failures that end the run'),
      f(
        'tools',
        'repairJson',
        'repair JSON',
        'bool',
        'malformed argument JSON is repaired (jsonrepair) before the model is asked again',
      ),
      f(
        'tools',
        'coerceArgs',
        'coerce arguments',
        'bool',
        'values the schema takes one way ("7" → 7) are converted before the model is asked again',
      ),
      f(
        'tools',
        'checkRateMax',
        'check rate',
        'int',
        'most run_check calls per window; more are refused unrun (0 = off)',
      ),
      f('tools', 'checkRateWindowMs', 'check rate window', 'ms', 'run time the check rate counts over'),
    ],
  },
  {
    id: 'output',
    title: 'Output cap',
    fields: [
      f('output', 'maxTokens', 'output cap', 'int', 'most tokens one response may have'),
      f(
        'output',
        'escalate',
        'escalate once',
        'bool',
        'first cut response: resend the same request with a bigger cap, output dropped',
      ),
      f(
        'output',
        'escalatedMaxTokens',
        'escalated cap',
        'int',
        "the bigger cap (lowered to the model's own limit)",
      ),
      f(
        'output',
        'maxContinuations',
        'continuations',
        'int',
        'later cut responses: keep and ask to continue, at most this often',
      ),
      f(
        'output',
        'continueAfterPartial',
        'continue after partial',
        'bool',
        'project choice: after a stream cut mid-answer, ask the model to continue',
      ),
      f(
        'output',
        'refuseCutToolCalls',
        'refuse cut tool calls',
        'bool',
        'a tool call cut by the cap mid-arguments is refused, not run half-written',
      ),
    ],
  },
  {
    id: 'context',
    title: 'Context',
    fields: [
      f(
        'context',
        'oldResultCompaction',
        'old-result compaction',
        'bool',
        'replace big old tool results with a stub',
      ),
      f('context', 'oldResultMinChars', 'min chars', 'int', 'results longer than this are compacted'),
      f('context', 'keepRecentIterations', 'keep recent', 'int', 'iterations whose results stay whole'),
    ],
  },
  {
    id: 'compaction',
    title: 'Compaction & overflow',
    fields: [
      f(
        'compaction',
        'proactive',
        'proactive compaction',
        'bool',
        'summarise older history near the threshold',
      ),
      f(
        'compaction',
        'thresholdRatio',
        'threshold',
        'ratio',
        "fraction of the model's window where compaction starts",
      ),
      f(
        'compaction',
        'keepRecentMessages',
        'keep recent messages',
        'int',
        'newest messages a summary never covers',
      ),
      f('compaction', 'summaryMaxTokens', 'summary cap', 'int', 'output cap of the summary call'),
      f(
        'compaction',
        'waterfall',
        'overflow waterfall',
        'bool',
        'on "prompt too long": micro-compact → full compaction → hard trim',
      ),
      f(
        'compaction',
        'waterfallBudget',
        'overflow budget',
        'int',
        'overflow recoveries for one step before the run ends',
      ),
      f('compaction', 'trimFloor', 'trim floor', 'int', 'messages a hard trim always keeps'),
      f('compaction', 'breaker', 'circuit breaker', 'bool', 'stop calling a failing summarizer for a while'),
      f('compaction', 'breakerFailures', 'opens after', 'int', 'consecutive failed summaries that open it'),
      f('compaction', 'breakerCooldownMs', 'half-open after', 'ms', 'run time before one probe is allowed'),
      f(
        'compaction',
        'reactive',
        'reactive compact',
        'bool',
        's11, with the waterfall off: on "prompt too long" keep the newest messages, retry once per run',
      ),
      f('compaction', 'reactiveKeepMessages', 'reactive keeps', 'int', 'messages a reactive compact keeps'),
    ],
  },
];

type FieldValue = string | number | boolean;

export function readValue(config: RecoveryConfig, field: RecoveryField): FieldValue {
  if (field.section === 'sdk') return config.sdkMaxRetries;
  return (config[field.section] as unknown as Record<string, FieldValue>)[field.key]!;
}

export function readOverride(overrides: RecoveryOverrides, field: RecoveryField): FieldValue | undefined {
  if (field.section === 'sdk') return overrides.sdkMaxRetries;
  const section = overrides[field.section] as Record<string, FieldValue> | undefined;
  return section?.[field.key];
}

/** Sets (or with `undefined`, clears) one override; empty sections are dropped. */
export function writeOverride(
  overrides: RecoveryOverrides,
  field: RecoveryField,
  value: FieldValue | undefined,
): RecoveryOverrides {
  if (field.section === 'sdk') {
    const { sdkMaxRetries: _drop, ...rest } = overrides;
    return value === undefined ? rest : { ...rest, sdkMaxRetries: value as number };
  }
  const current = { ...((overrides[field.section] as Record<string, FieldValue> | undefined) ?? {}) };
  if (value === undefined) delete current[field.key];
  else current[field.key] = value;
  const next: Record<string, unknown> = { ...overrides };
  if (Object.keys(current).length === 0) delete next[field.section];
  else next[field.section] = current;
  return next as RecoveryOverrides;
}

/** Drops overrides equal to the preset's value, so only real changes are sent. */
export function pruneOverrides(overrides: RecoveryOverrides, defaults: RecoveryConfig): RecoveryOverrides {
  let out = overrides;
  for (const group of RECOVERY_GROUPS) {
    for (const field of group.fields) {
      const v = readOverride(out, field);
      if (v !== undefined && v === readValue(defaults, field)) out = writeOverride(out, field, undefined);
    }
  }
  return out;
}

/** How many parameters the overrides change: one per leaf value, however deep it sits. */
export function countOverrides(overrides: RecoveryOverrides): number {
  const leaves = (value: unknown): number =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.values(value as Record<string, unknown>).reduce<number>((n, v) => n + leaves(v), 0)
      : value === undefined
        ? 0
        : 1;
  // A policy of its own is one override, however many fields it has.
  const { policy, ...fields } = overrides;
  return leaves(fields) + (policy ? 1 : 0);
}

/** Every group, each with the mechanism modules' fields in its section at the end (lib/mechanisms/<name>/about.ts). */
export const RECOVERY_GROUPS: readonly RecoveryGroup[] = CORE_GROUPS.map((group) => {
  const added = MODULE_ABOUT.flatMap((about) => about.fields).filter((field) => field.section === group.id);
  return added.length === 0
    ? group
    : {
        ...group,
        fields: [...group.fields, ...added.map((m) => f(m.section, m.key, m.label, m.kind, m.meaning))],
      };
});
