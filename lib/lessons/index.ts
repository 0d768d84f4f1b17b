import { placeAfter } from '@/lib/mechanisms/module';
import { MODULE_LESSONS } from '@/lib/mechanisms/modules/lesson';
import type { Lesson } from './lesson';
import { approvalDeniesAWrite } from './catalog/approval-denies-a-write';
import { argRepair } from './catalog/arg-repair';
import { backgroundRetry } from './catalog/background-retry';
import { breakerHalfOpen } from './catalog/breaker-half-open';
import { circuitBreaker } from './catalog/circuit-breaker';
import { classifier } from './catalog/classifier';
import { crossVendorFallback } from './catalog/cross-vendor-fallback';
import { cutToolCalls } from './catalog/cut-tool-calls';
import { forkOntoResponses } from './catalog/fork-onto-responses';
import { failureBudget } from './catalog/failure-budget';
import { fallbackModel } from './catalog/fallback-model';
import { loopGuard } from './catalog/loop-guard';
import { loopGuardHalt } from './catalog/loop-guard-halt';
import { mcpReconnect } from './catalog/mcp-reconnect';
import { oldResultCompaction } from './catalog/old-result-compaction';
import { outputCapEscalation } from './catalog/output-cap-escalation';
import { outputTruncation } from './catalog/output-truncation';
import { overflowWaterfall } from './catalog/overflow-waterfall';
import { partialVsEmpty } from './catalog/partial-vs-empty';
import { proactiveSummary } from './catalog/proactive-summary';
import { promptCaching } from './catalog/prompt-caching';
import { reactiveCompact } from './catalog/reactive-compact';
import { readingATrace } from './catalog/reading-a-trace';
import { reasoningPlaceholder } from './catalog/reasoning-placeholder';
import { retryAfter } from './catalog/retry-after';
import { retryAmplification } from './catalog/retry-amplification';
import { retryLadder } from './catalog/retry-ladder';
import { rewrittenTest } from './catalog/rewritten-test';
import { specificToolErrors } from './catalog/specific-tool-errors';
import { streamErrorCap } from './catalog/stream-error-cap';
import { streamIdleWatchdog } from './catalog/stream-idle-watchdog';
import { takeoverCredentials } from './catalog/takeover-credentials';

export type { Lesson, LessonOutcome, LessonSide } from './lesson';
export { endingByDesign, lessonRunConfig } from './lesson';

/** The lessons written here, in teaching order: model calls, streams, tools, context, takeover, the verdict. */
const CORE: readonly Lesson[] = [
  retryLadder,
  classifier,
  retryAfter,
  retryAmplification,
  streamIdleWatchdog,
  partialVsEmpty,
  streamErrorCap,
  fallbackModel,
  crossVendorFallback,
  backgroundRetry,
  loopGuard,
  loopGuardHalt,
  failureBudget,
  specificToolErrors,
  argRepair,
  mcpReconnect,
  outputTruncation,
  oldResultCompaction,
  promptCaching,
  proactiveSummary,
  overflowWaterfall,
  circuitBreaker,
  breakerHalfOpen,
  reactiveCompact,
  outputCapEscalation,
  cutToolCalls,
  takeoverCredentials,
  reasoningPlaceholder,
  forkOntoResponses,
  rewrittenTest,
  approvalDeniesAWrite,
  readingATrace,
];

/** Every lesson, in teaching order: a mechanism module's lesson (lib/mechanisms/<name>/lesson.ts) after the one it names. */
export const LESSONS: readonly Lesson[] = placeAfter<Lesson, Lesson>(
  CORE,
  MODULE_LESSONS.map((m) => ({ items: [m.lesson], after: m.after })),
  (lesson) => lesson.slug,
);

export function lessonBySlug(slug: string): Lesson | undefined {
  return LESSONS.find((lesson) => lesson.slug === slug);
}
