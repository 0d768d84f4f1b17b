import type { ErrorCategory } from '@/lib/protocol';

/**
 * The text heuristics, tried in order on the lower-cased error text once status and vendor
 * type have had their say. Coarse on purpose: a classifier that errs towards "transient"
 * costs a few retries of a bounded budget; one that errs towards "deterministic" hard-fails
 * a passing fault after one attempt. Status codes are matched on word boundaries, so
 * "1429 tokens" is not a 429.
 */
export interface TextRule {
  category: ErrorCategory;
  needle: string | RegExp;
  /** Set when the match means the condition will not pass by waiting (quota, spend cap). */
  permanent?: boolean;
}

const status = (code: string): RegExp => new RegExp(`\\b${code}\\b`);

export const TEXT_RULES: readonly TextRule[] = [
  { category: 'context_length', needle: 'prompt is too long' },
  { category: 'context_length', needle: 'context_length_exceeded' },
  { category: 'context_length', needle: 'maximum context length' },
  { category: 'context_length', needle: 'input length and `max_tokens` exceed' },
  { category: 'context_length', needle: 'model_context_window_exceeded' },
  { category: 'context_length', needle: 'context window' },
  { category: 'context_length', needle: 'context length' },
  { category: 'authentication', needle: 'invalid x-api-key' },
  { category: 'authentication', needle: 'incorrect api key' },
  { category: 'authentication', needle: 'invalid api key' },
  { category: 'authentication', needle: 'invalid_api_key' },
  { category: 'authentication', needle: 'authentication' },
  { category: 'authentication', needle: 'unauthorized' },
  { category: 'authentication', needle: status('401') },
  { category: 'authorization', needle: 'permission' },
  { category: 'authorization', needle: 'forbidden' },
  { category: 'authorization', needle: status('403') },
  { category: 'rate_limit', needle: 'insufficient_quota', permanent: true },
  { category: 'rate_limit', needle: 'exceeded your current quota', permanent: true },
  { category: 'rate_limit', needle: 'spend limit', permanent: true },
  { category: 'rate_limit', needle: 'usage limit', permanent: true },
  { category: 'rate_limit', needle: 'credit balance', permanent: true },
  // CodeSmith's text classifier files any "quota" with rate limits; the spent ones are matched above.
  { category: 'rate_limit', needle: 'quota' },
  { category: 'rate_limit', needle: 'rate limit' },
  { category: 'rate_limit', needle: 'rate_limit' },
  { category: 'rate_limit', needle: 'too many requests' },
  { category: 'rate_limit', needle: status('429') },
  { category: 'overloaded', needle: 'overloaded' },
  { category: 'overloaded', needle: status('529') },
  { category: 'timeout', needle: 'timeout' },
  { category: 'timeout', needle: 'timed out' },
  { category: 'timeout', needle: status('408') },
  { category: 'timeout', needle: status('504') },
  { category: 'network', needle: 'econnreset' },
  { category: 'network', needle: 'econnrefused' },
  { category: 'network', needle: 'fetch failed' },
  { category: 'network', needle: 'terminated' },
  { category: 'network', needle: 'socket' },
  { category: 'network', needle: 'other side closed' },
  { category: 'network', needle: 'connection error' },
  { category: 'network', needle: 'connection reset' },
  { category: 'network', needle: 'connection refused' },
  { category: 'network', needle: 'network' },
  { category: 'network', needle: 'enotfound' },
  { category: 'network', needle: 'eai_again' },
  { category: 'network', needle: 'epipe' },
  { category: 'parse', needle: 'unexpected end of json' },
  { category: 'parse', needle: 'unterminated string' },
  { category: 'parse', needle: 'is not valid json' },
  { category: 'parse', needle: 'unexpected token' },
  { category: 'parse', needle: 'malformed' },
  { category: 'state', needle: 'conflict' },
  { category: 'state', needle: status('409') },
  { category: 'internal', needle: '<html' },
  { category: 'internal', needle: 'bad gateway' },
  { category: 'internal', needle: 'service unavailable' },
  { category: 'internal', needle: 'upstream connect error' },
  { category: 'internal', needle: 'internal server error' },
  { category: 'internal', needle: 'server had an error' },
  { category: 'internal', needle: 'server error' },
  { category: 'internal', needle: 'api_error' },
  { category: 'internal', needle: status('50[0-3]') },
  { category: 'invalid_input', needle: 'invalid_request_error' },
  { category: 'invalid_input', needle: 'invalid request' },
  { category: 'invalid_input', needle: 'bad request' },
  { category: 'invalid_input', needle: 'not found' },
  { category: 'invalid_input', needle: 'too large' },
  { category: 'invalid_input', needle: status('(400|404|413|422)') },
];

/** The first rule whose needle occurs in `text`, with a label for the `rule` field. */
export function matchTextRule(text: string): { rule: TextRule; label: string } | undefined {
  for (const rule of TEXT_RULES) {
    if (typeof rule.needle === 'string') {
      if (text.includes(rule.needle)) return { rule, label: `text: '${rule.needle}'` };
    } else {
      const hit = rule.needle.exec(text);
      if (hit) return { rule, label: `text: status ${hit[0]}` };
    }
  }
  return undefined;
}
