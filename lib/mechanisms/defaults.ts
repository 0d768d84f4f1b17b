import { formatMs, PRESETS } from '@/lib/protocol';

/**
 * The mechanisms' default numbers in words, read from the presets (lib/protocol), so a lesson,
 * a glossary entry or a mechanism's one line cannot state a number the engine does not use.
 * Change a preset and every sentence that quotes it changes with it.
 */

/** A count with its thousands separated: 4,000. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** A ratio as a percentage: 0.1 → "10 %". */
export function percent(ratio: number): string {
  return `${Math.round(ratio * 100)} %`;
}

/** A token count the way the presets are talked about: 8,192 → "8 K", 64,000 → "64 K". */
export function kTokens(n: number): string {
  return n >= 1_000 ? `${Math.round(n / 1_000)} K` : String(n);
}

const { codesmith, s11, course } = PRESETS;

/** The numbers the design names for each mechanism, each from the preset that reproduces its source. */
export const DEFAULTS = {
  /** CodeSmith's retry (its exclusion rule). */
  retries: codesmith.retry.maxRetries,
  backoffBase: formatMs(codesmith.retry.baseDelayMs),
  backoffSteps: [0, 1, 2].map((n) =>
    formatMs(Math.min(codesmith.retry.baseDelayMs * 2 ** n, codesmith.retry.maxDelayMs)),
  ),
  backoffCap: formatMs(codesmith.retry.maxDelayMs),
  jitter: `±${percent(codesmith.retry.jitterRatio)}`,
  retryAfterCap: formatMs(codesmith.retry.retryAfterCapMs),
  backgroundRetries: codesmith.background.maxRetries,
  /** The stream idle watchdog and the stream error cap. */
  watchdogBase: formatMs(codesmith.watchdog.baseMs),
  watchdogPerRetry: formatMs(codesmith.watchdog.perRetryMs),
  streamErrorCap: codesmith.watchdog.streamErrorCap,
  /** s11's retry and degrade. */
  s11Attempts: s11.retry.maxRetries + 1,
  s11Retries: s11.retry.maxRetries,
  s11BackoffBase: formatMs(s11.retry.baseDelayMs),
  s11BackoffCap: formatMs(s11.retry.maxDelayMs),
  s11Jitter: `0–${percent(s11.retry.jitterRatio)}`,
  fallbackAfter: s11.fallback.afterOverloads,
  /** Tools (the loop guard is CodeSmith's; the rest the course's SafeExecutor). */
  blockRepeatAt: codesmith.tools.blockRepeatAt,
  warnAfterFailures: codesmith.tools.warnAfterFailures,
  haltAfterFailures: codesmith.tools.haltAfterFailures,
  failureBudget: course.tools.failureBudget,
  toolTimeout: formatMs(course.tools.timeoutMs),
  truncateChars: count(course.tools.truncateChars),
  oldResultMinChars: count(course.context.oldResultMinChars),
  keepRecentIterations: course.context.keepRecentIterations,
  /** Context: proactive summary, waterfall and breaker (CodeSmith), reactive compact (s11). */
  proactiveThreshold: percent(codesmith.compaction.thresholdRatio),
  waterfallBudget: codesmith.compaction.waterfallBudget,
  trimFloor: codesmith.compaction.trimFloor,
  breakerFailures: codesmith.compaction.breakerFailures,
  breakerCooldown: formatMs(codesmith.compaction.breakerCooldownMs),
  reactiveKeep: s11.compaction.reactiveKeepMessages,
  /** s11's output cap escalation. */
  outputCap: kTokens(s11.output.maxTokens),
  escalatedCap: kTokens(s11.output.escalatedMaxTokens),
  maxContinuations: s11.output.maxContinuations,
} as const;
