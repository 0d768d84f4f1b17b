export { classifyError, isRetryableCategory, type Classification } from './classify';
export { extractErrorFacts, type ErrorFacts } from './error-facts';
export { computeBackoff, decideWait } from './backoff';
export { isBackgroundRetryable } from './background';
