import type { Lesson } from './lesson';
import { argRepair } from './catalog/arg-repair';
import { backgroundRetry } from './catalog/background-retry';
import { circuitBreaker } from './catalog/circuit-breaker';
import { failureBudget } from './catalog/failure-budget';
import { fallbackModel } from './catalog/fallback-model';
import { loopGuard } from './catalog/loop-guard';
import { oldResultCompaction } from './catalog/old-result-compaction';
import { outputCapEscalation } from './catalog/output-cap-escalation';
import { outputTruncation } from './catalog/output-truncation';
import { overflowWaterfall } from './catalog/overflow-waterfall';
import { partialVsEmpty } from './catalog/partial-vs-empty';
import { proactiveSummary } from './catalog/proactive-summary';
import { promptCaching } from './catalog/prompt-caching';
import { reactiveCompact } from './catalog/reactive-compact';
import { retryAfter } from './catalog/retry-after';
import { retryLadder } from './catalog/retry-ladder';
import { rewrittenTest } from './catalog/rewritten-test';
import { specificToolErrors } from './catalog/specific-tool-errors';
import { streamErrorCap } from './catalog/stream-error-cap';
import { streamIdleWatchdog } from './catalog/stream-idle-watchdog';
import { takeoverCredentials } from './catalog/takeover-credentials';

export type { Lesson, LessonOutcome, LessonSide } from './lesson';
export { endingByDesign, lessonRunConfig } from './lesson';

/** Every lesson, in teaching order: model calls, streams, tools, context, takeover, the verdict. */
export const LESSONS: readonly Lesson[] = [
  retryLadder,
  retryAfter,
  streamIdleWatchdog,
  partialVsEmpty,
  streamErrorCap,
  fallbackModel,
  backgroundRetry,
  loopGuard,
  failureBudget,
  specificToolErrors,
  argRepair,
  outputTruncation,
  oldResultCompaction,
  promptCaching,
  proactiveSummary,
  overflowWaterfall,
  circuitBreaker,
  reactiveCompact,
  outputCapEscalation,
  takeoverCredentials,
  rewrittenTest,
];

export function lessonBySlug(slug: string): Lesson | undefined {
  return LESSONS.find((lesson) => lesson.slug === slug);
}
