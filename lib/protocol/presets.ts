import { COMPACTION_OFF, type PresetId } from './preset-ids';
import { MODULE_TOOLS_PRESETS } from '@/lib/mechanisms/modules/about';
import type { RecoveryConfig, RecoveryOverrides } from './recovery';

/**
 * The presets reproduce their sources. Pure data, shared by the engine
 * (to run) and the browser (to show each parameter's default).
 */

const OFF_TOOLS: RecoveryConfig['tools'] = {
  safeExecutor: false,
  failureBudget: 3,
  shortCircuitRepeats: false,
  timeoutMs: 30_000,
  truncateChars: 0,
  loopGuard: false,
  blockRepeatAt: 3,
  warnAfterFailures: 3,
  haltAfterFailures: 8,
  repairJson: false,
  coerceArgs: false,
  // A safety limit, not a recovery mechanism: the same in every preset.
  checkRateMax: 10,
  checkRateWindowMs: 60_000,
  // The mechanism modules' fields (lib/mechanisms/<name>/protocol.ts: each says its defaults).
  ...MODULE_TOOLS_PRESETS.off,
};

const OFF_CONTEXT: RecoveryConfig['context'] = {
  oldResultCompaction: false,
  oldResultMinChars: 1000,
  keepRecentIterations: 2,
};

const OFF_COMPACTION: RecoveryConfig['compaction'] = COMPACTION_OFF;
/** No escalation, no continuation: a response cut by the cap ends the run (tool calls in it are refused when cut). */
const OFF_OUTPUT: RecoveryConfig['output'] = {
  maxTokens: 8192,
  escalate: false,
  escalatedMaxTokens: 64_000,
  maxContinuations: 0,
  continueAfterPartial: false,
  refuseCutToolCalls: true,
};

/** CodeSmith: exclusion retry (all but auth and context overflow), 1 s doubling to 60 s ±10 %, watchdog, loop guard, tool arguments repaired before a re-ask. */
const codesmith: RecoveryConfig = {
  sdkMaxRetries: 0,
  retry: {
    enabled: true,
    maxRetries: 3,
    baseDelayMs: 1_000,
    maxDelayMs: 60_000,
    jitterMode: 'symmetric',
    jitterRatio: 0.1,
    honorRetryAfter: true,
    retryAfterCapMs: 86_400_000,
    // The source's exclusion rule: only authentication/permission errors and context overflow fail at once.
    retryOn: 'exclusion',
    backoff: 'exponential',
    // The engine layer's hardcoded rate-limit sleep, used when `backoff` is `fixed` (the stacked layers).
    fixedDelayMs: 2_000,
  },
  background: { enabled: true, maxRetries: 3, baseDelayMs: 1_000 },
  watchdog: { enabled: true, baseMs: 120_000, perRetryMs: 30_000, streamErrorCap: 5 },
  fallback: { enabled: false, afterOverloads: 3, model: '' },
  tools: {
    ...OFF_TOOLS,
    loopGuard: true,
    repairJson: true,
    coerceArgs: true,
    ...MODULE_TOOLS_PRESETS.codesmith,
  },
  context: OFF_CONTEXT,
  // The waterfall (budget 2, floor 4) and breaker (3 failures, 5 min) are the seed's; the
  // proactive threshold (75 % of the window) is the project's choice.
  compaction: { ...OFF_COMPACTION, proactive: true, waterfall: true, breaker: true },
  // The preventive per-turn output budget (headroom for interleaved thinking): each request
  // asks for it lowered to the model's own output limit (the engine says so on the request).
  output: { ...OFF_OUTPUT, maxTokens: 262_144 },
  // The source's cache-protection floor has no number in it: off here (0); its forced compaction's
  // bypass is on, so a floor set by hand is bypassed by the overflow waterfall as the source does.
  cache: { promptCaching: true, protectionFloorTokens: 0, forcedBypassesFloor: true },
};

/** learn-claude-code s11: `range(10)` attempts of min(500·2ⁿ, 32000) ms + 0–25 %, 429/529 only, fallback after 3 overloads. */
const s11: RecoveryConfig = {
  sdkMaxRetries: 0,
  retry: {
    enabled: true,
    maxRetries: 9,
    baseDelayMs: 500,
    maxDelayMs: 32_000,
    jitterMode: 'additive',
    jitterRatio: 0.25,
    honorRetryAfter: false,
    retryAfterCapMs: 86_400_000,
    retryOn: 'rate_limit_overloaded',
    backoff: 'exponential',
    fixedDelayMs: 2_000,
  },
  background: { enabled: false, maxRetries: 0, baseDelayMs: 500 },
  watchdog: { enabled: false, baseMs: 120_000, perRetryMs: 0, streamErrorCap: 5 },
  fallback: { enabled: true, afterOverloads: 3, model: '' },
  tools: OFF_TOOLS,
  context: OFF_CONTEXT,
  compaction: { ...OFF_COMPACTION, reactive: true, reactiveKeepMessages: 5 },
  output: {
    maxTokens: 8_000,
    escalate: true,
    escalatedMaxTokens: 64_000,
    maxContinuations: 3,
    continueAfterPartial: false,
    refuseCutToolCalls: true,
  },
  cache: { promptCaching: false, protectionFloorTokens: 0, forcedBypassesFloor: true },
};

/** The course's SafeExecutor: tools fail well; model calls are not retried by the loop. */
const course: RecoveryConfig = {
  sdkMaxRetries: 0,
  retry: { ...codesmith.retry, enabled: false },
  background: { enabled: false, maxRetries: 0, baseDelayMs: 500 },
  watchdog: { ...codesmith.watchdog, enabled: false },
  fallback: { enabled: false, afterOverloads: 3, model: '' },
  tools: {
    ...OFF_TOOLS,
    safeExecutor: true,
    shortCircuitRepeats: true,
    truncateChars: 4_000,
    ...MODULE_TOOLS_PRESETS.course,
  },
  context: { oldResultCompaction: true, oldResultMinChars: 1_000, keepRecentIterations: 2 },
  compaction: OFF_COMPACTION,
  output: OFF_OUTPUT,
  // "Keep the system prompt lean and cache it: stable prefix first."
  cache: { promptCaching: true, protectionFloorTokens: 0, forcedBypassesFloor: true },
};

/** No recovery at all: the first error ends the run. */
const naive: RecoveryConfig = {
  sdkMaxRetries: 0,
  retry: { ...codesmith.retry, enabled: false, maxRetries: 0 },
  background: { enabled: false, maxRetries: 0, baseDelayMs: 500 },
  watchdog: { ...codesmith.watchdog, enabled: false },
  fallback: { enabled: false, afterOverloads: 3, model: '' },
  tools: OFF_TOOLS,
  context: OFF_CONTEXT,
  compaction: OFF_COMPACTION,
  output: OFF_OUTPUT,
  cache: { promptCaching: false, protectionFloorTokens: 0, forcedBypassesFloor: true },
};

/** The vendor SDK's own retries (2, its default), nothing else. */
const sdkDefault: RecoveryConfig = { ...naive, sdkMaxRetries: 2 };

export const PRESETS: Record<PresetId, RecoveryConfig> = {
  codesmith,
  s11,
  course,
  naive,
  'sdk-default': sdkDefault,
};

export const PRESET_LABELS: Record<PresetId, string> = {
  codesmith: 'CodeSmith',
  s11: 'learn-claude-code s11',
  course: 'course SafeExecutor',
  naive: 'naive (no recovery)',
  'sdk-default': 'SDK default',
};

/**
 * What each preset reproduces, and where the project chooses differently from its source
 * (shown under the preset picker, so a person comparing presets knows what they compare).
 */
export const PRESET_DESCRIPTIONS: Record<PresetId, { summary: string; differs?: string }> = {
  codesmith: {
    summary:
      'exclusion retry: only authentication and permission errors and context overflow (its own channel) fail at once, everything else — a bad request, a 404 and a spent quota included, as its text classifier files "quota" with rate limits — is retried within the budget (3 retries, 1 s doubling to 60 s ±10 %, Retry-After honoured up to 1 day); stream watchdog 120 s +30 s per retry, Empty retried at once within the same budget, 5 stream errors fail; background account 3 retries at 1/2/4 s; overflow waterfall with a budget of 2 and a hard-trim floor of 4 messages; summary breaker open after 3 failures for 5 min; loop guard (the 3rd identical call blocked, 3 failures in a row warn, 8 halt); malformed tool arguments repaired where safe (the JSON text, then values the schema takes unambiguously, "7" → 7) before the model is asked again with the specific error; a preventive output budget of 262,144 tokens, each request asking for it within the model’s own output limit (64,000 on claude-sim-sonnet, and it says so); the stable prefix (tools, system prompt, settled history) marked for the vendor\'s prompt cache',
    differs:
      "the seed stacks two retry layers, an HTTP layer retrying 429/500/502/503/504 3 times beneath an engine layer that sleeps a fixed 2 s on rate limits; this preset runs the HTTP layer's numbers in the loop's one ladder — the stacked pair is sdkMaxRetries 3 with retry backoff fixed, the HTTP layer then being the vendor SDK's own retries (0.5 s doubling to 8 s, less up to 25 %, 408 and 409 retried too); background retries use the same ±10 % jitter as the foreground (the source names only 1/2/4 s); the proactive summary at 75 % of the window is the project's choice; a model Loop Lab does not know is asked for the full budget; the project's additions, which the source does not describe: read-only tool calls of one turn run up to 4 at once, and a tool call cut before its result is answered with a synthetic error result; the source names no number for its cache-protection floor, so the floor is off here (protectionFloorTokens 0: every compaction may rewrite the cached prefix, and its event says where the cached prefix ends); set one and a proactive summary is held back while the cache is warm, and the overflow waterfall's forced compaction bypasses it as the source's does (forcedBypassesFloor), its event saying so",
  },
  s11: {
    summary:
      'range(10): 10 attempts in all, only 429 and 529 retried, min(500·2ⁿ, 32 s) + 0–25 %, Retry-After not passed; fallback model after 3 consecutive 529s; output cap 8,000 escalated once to 64,000, then at most 3 continuations; prompt too long: keep the last 5 messages, retry once per run',
    differs:
      "a 429 whose body says the quota is spent is not retried: the project's classifier ends the call at once, where the source's with_retry catches every RateLimitError and would retry it like any rate limit; the reactive compact cuts only before an assistant message, so when the oldest of the last 5 messages is a tool result (or another user message) the one before it is kept too (6 messages): a slice of the last 5 would send the result without its call, and the vendor refuses that; the source's text says a server's Retry-After takes priority, but its with_retry never passes one: the preset follows the code; the fallback streak resets on any other outcome (the source never resets it); the escalated cap is lowered to the model's own output limit when that is smaller; a window-exceeded stop is continued, not escalated (a bigger cap cannot help); the trimmed copy carries a note with the task, and the s08 compaction layers that run before the reactive compact are not part of this preset",
  },
  course: {
    summary:
      'safe executor: tools fail well — 3 failures disable a tool, an exact repeat of a failed call is short-circuited, tool output truncated at 4,000 characters, results over 1,000 characters stubbed once older than the last 2 iterations; model calls are not retried; the stable prefix cached ("stable prefix first")',
    differs:
      "the 30 s tool timeout is the project's (the course has none); the output cap is the project's 8,192 (the course's sample call asks for 2,048); its 15-iteration budget is the run's budgets.maxIterations, not a preset's; a tool call cut before its result is answered with a synthetic error result (the project's addition; the course's loop does not meet one)",
  },
  naive: {
    summary:
      'no recovery at all: the first error ends the run; malformed tool arguments are not repaired, the model is only told what was wrong',
  },
  'sdk-default': {
    summary:
      "only the vendor SDK's own 2 retries (its default: 0.5 s doubling to 8 s, less up to 25 %, Retry-After honoured) beneath a loop that retries nothing: the loop sees one attempt, the page each request the SDK resent",
  },
};

/** The effective configuration: a preset with overrides laid over it, field by field. */
export function resolveRecovery(preset: PresetId, overrides: RecoveryOverrides = {}): RecoveryConfig {
  const base = PRESETS[preset];
  return {
    sdkMaxRetries: overrides.sdkMaxRetries ?? base.sdkMaxRetries,
    retry: { ...base.retry, ...overrides.retry },
    background: { ...base.background, ...overrides.background },
    watchdog: { ...base.watchdog, ...overrides.watchdog },
    fallback: { ...base.fallback, ...overrides.fallback },
    tools: { ...base.tools, ...overrides.tools },
    context: { ...base.context, ...overrides.context },
    compaction: { ...base.compaction, ...overrides.compaction },
    output: { ...base.output, ...overrides.output },
    cache: { ...base.cache, ...overrides.cache },
    ...(overrides.policy ? { policy: overrides.policy } : base.policy ? { policy: base.policy } : {}),
  };
}
