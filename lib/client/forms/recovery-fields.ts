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

/** One field of a group's table: key, label, kind, meaning, and an enum's options. */
type FieldRow = readonly [
  key: string,
  label: string,
  kind: FieldKind,
  meaning: string,
  options?: readonly string[],
];

/** A group of one section's fields, each one row of its table. */
function group(id: Section, title: string, rows: readonly FieldRow[]): RecoveryGroup {
  return {
    id,
    title,
    fields: rows.map(([key, label, kind, meaning, options]) => f(id, key, label, kind, meaning, options)),
  };
}

// One line a field, as a table reads (prettier would break each long row into a line a cell).
// prettier-ignore
const CORE_GROUPS: readonly RecoveryGroup[] = [
  group('retry', 'Retry & backoff', [
    ['enabled', 'retry', 'bool', 'retry failed model calls within a budget'],
    ['maxRetries', 'max retries', 'int', 'retries after the first attempt of one call'],
    ['baseDelayMs', 'base delay', 'ms', 'first backoff wait; doubles each retry'],
    ['maxDelayMs', 'max delay', 'ms', 'cap on one backoff wait'],
    ['jitterMode', 'jitter mode', 'enum', 'symmetric: ±ratio; additive: +0…ratio', ['symmetric', 'additive']],
    ['jitterRatio', 'jitter ratio', 'ratio', 'how much randomness spreads the waits'],
    ['honorRetryAfter', 'honour Retry-After', 'bool', 'wait as long as the server asks'],
    ['retryAfterCapMs', 'Retry-After cap', 'ms', 'longest server-requested wait honoured'],
    ['retryOn', 'retry on', 'enum', 'exclusion: all but auth/permission/context (CodeSmith); transient: also not a bad request or a spent quota (the classifier); rate_limit_overloaded: only 429 and 529; everything: the classifier ignored', ['exclusion', 'transient', 'rate_limit_overloaded', 'everything']],
    ['backoff', 'backoff', 'enum', 'exponential: base·2ⁿ with jitter; fixed: a rate limit sleeps the fixed delay, anything else retries at once', ['exponential', 'fixed']],
    ['fixedDelayMs', 'fixed delay', 'ms', 'the sleep on a rate limit in fixed mode (Retry-After not read)'],
  ]),
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
  group('watchdog', 'Stream idle watchdog', [
    ['enabled', 'watchdog', 'bool', 'abort a stream that stops sending content'],
    ['baseMs', 'window', 'ms', 'silence allowed before the stream is cut'],
    ['perRetryMs', 'per retry', 'ms', 'window grows by this for each retry spent'],
    ['streamErrorCap', 'stream error cap', 'int', 'consecutive stream errors before failing (at least 1; bounds the Empty retries)'],
  ]),
  group('fallback', 'Fallback model', [
    ['enabled', 'fallback', 'bool', 'switch model after repeated overloads'],
    ['afterOverloads', 'after overloads', 'int', 'consecutive 529s before switching'],
    ['model', 'model', 'text', "model to switch to (empty: vendor's fallback)"],
  ]),
  group('background', 'Background calls', [
    ['enabled', 'background retry', 'bool', 'summaries and titles get their own retry account'],
    ['maxRetries', 'max retries', 'int', 'retries for one background call'],
    ['baseDelayMs', 'base delay', 'ms', 'first backoff wait of a background call'],
  ]),
  group('tools', 'Tool safety', [
    ['safeExecutor', 'safe executor', 'bool', 'tool errors return as results, never throw'],
    ['failureBudget', 'failure budget', 'int', 'failures before a tool is disabled for the run'],
    ['shortCircuitRepeats', 'short-circuit repeats', 'bool', 'an exact repeat of a failed call is not run again'],
    ['timeoutMs', 'tool timeout', 'ms', 'longest a tool may run'],
    ['truncateChars', 'truncate output', 'int', 'cut tool output over this many chars (0 = off)'],
    ['loopGuard', 'loop guard', 'bool', 'block repeated identical calls, halt on failure streaks'],
    ['blockRepeatAt', 'block repeat at', 'int', 'the Nth identical call is blocked'],
    ['warnAfterFailures', 'warn after', 'int', 'consecutive failures before a warning'],
    ['haltAfterFailures', 'halt after', 'int', 'consecutive failures that end the run'],
    ['repairJson', 'repair JSON', 'bool', 'malformed argument JSON is repaired (jsonrepair) before the model is asked again'],
    ['coerceArgs', 'coerce arguments', 'bool', 'values the schema takes one way ("7" → 7) are converted before the model is asked again'],
    ['checkRateMax', 'check rate', 'int', 'most run_check calls per window; more are refused unrun (0 = off)'],
    ['checkRateWindowMs', 'check rate window', 'ms', 'run time the check rate counts over'],
  ]),
  group('output', 'Output cap', [
    ['maxTokens', 'output cap', 'int', 'most tokens one response may have'],
    ['escalate', 'escalate once', 'bool', 'first cut response: resend the same request with a bigger cap, output dropped'],
    ['escalatedMaxTokens', 'escalated cap', 'int', "the bigger cap (lowered to the model's own limit)"],
    ['maxContinuations', 'continuations', 'int', 'later cut responses: keep and ask to continue, at most this often'],
    ['continueAfterPartial', 'continue after partial', 'bool', 'project choice: after a stream cut mid-answer, ask the model to continue'],
    ['refuseCutToolCalls', 'refuse cut tool calls', 'bool', 'a tool call cut by the cap mid-arguments is refused, not run half-written'],
  ]),
  group('context', 'Context', [
    ['oldResultCompaction', 'old-result compaction', 'bool', 'replace big old tool results with a stub'],
    ['oldResultMinChars', 'min chars', 'int', 'results longer than this are compacted'],
    ['keepRecentIterations', 'keep recent', 'int', 'iterations whose results stay whole'],
  ]),
  group('compaction', 'Compaction & overflow', [
    ['proactive', 'proactive compaction', 'bool', 'summarise older history near the threshold'],
    ['thresholdRatio', 'threshold', 'ratio', "fraction of the model's window where compaction starts"],
    ['keepRecentMessages', 'keep recent messages', 'int', 'newest messages a summary never covers'],
    ['summaryMaxTokens', 'summary cap', 'int', 'output cap of the summary call'],
    ['waterfall', 'overflow waterfall', 'bool', 'on "prompt too long": micro-compact → full compaction → hard trim'],
    ['waterfallBudget', 'overflow budget', 'int', 'overflow recoveries for one step before the run ends'],
    ['trimFloor', 'trim floor', 'int', 'messages a hard trim always keeps'],
    ['breaker', 'circuit breaker', 'bool', 'stop calling a failing summarizer for a while'],
    ['breakerFailures', 'opens after', 'int', 'consecutive failed summaries that open it'],
    ['breakerCooldownMs', 'half-open after', 'ms', 'run time before one probe is allowed'],
    ['reactive', 'reactive compact', 'bool', 's11, with the waterfall off: on "prompt too long" keep the newest messages, retry once per run'],
    ['reactiveKeepMessages', 'reactive keeps', 'int', 'messages a reactive compact keeps'],
  ]),
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
