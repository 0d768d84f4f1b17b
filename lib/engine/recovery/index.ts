export { classifyError, isRetryableCategory, type Classification } from './classify';
export { extractErrorFacts, type ErrorFacts } from './error-facts';
export { parseRetryAfter } from './retry-after';
export { computeBackoff, decideWait } from './backoff';
export { isBackgroundRetryable } from './background';
