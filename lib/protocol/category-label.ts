import type { ErrorCategory } from './events';

/**
 * Each error category in the words the UI uses ("rate limited", not "rate_limit"): one table
 * for the browser's cards and the server's comparison lines, so the two never name a
 * category differently.
 */
const CATEGORY_LABELS: Record<ErrorCategory, string> = {
  network: 'network error',
  authentication: 'authentication failed',
  authorization: 'permission denied',
  rate_limit: 'rate limited',
  overloaded: 'overloaded',
  timeout: 'timeout',
  context_length: 'context too long',
  invalid_input: 'invalid request',
  parse: 'unparseable response',
  tool: 'tool error',
  state: 'state error',
  internal: 'server error',
  unknown: 'unknown error',
};

export function categoryLabel(category: ErrorCategory): string {
  return CATEGORY_LABELS[category];
}
