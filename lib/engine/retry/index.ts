export { retry, type AttemptOutcome, type RetryOptions, type RetryResult } from './retry';
export { decideRetry, type FailureHints, type RetryDecision } from './decide-retry';
export {
  backgroundAccount,
  foregroundAccount,
  type RetryAccount,
  type RetryAccountName,
} from './retry-account';
