import { classifierRetryable, type ErrorCategory, type RetryErrorKind } from '@/lib/protocol';
import { extractErrorFacts, type ErrorFacts } from './error-facts';
import { parseRetryAfter } from '@/lib/protocol/retry-after';
import { matchTextRule } from './text-rules';

export interface Classification {
  category: ErrorCategory;
  /** Which rule decided, e.g. "status 529", "vendor type overloaded_error", "text: 'overloaded'". */
  rule: string;
  /** The project's classifier's verdict: can retrying help? (A configuration's retry rule may still retry it: lib/protocol/retry-rules.ts.) */
  retryable: boolean;
  /** Waiting cannot help whatever the category says: a spent quota or billing limit, or the caller's own abort. */
  lasting?: RetryErrorKind['lasting'];
  status?: number;
  vendorType?: string;
  message: string;
  /** The server's wait hint from the response headers, uncapped. */
  retryAfterMs?: number;
}

interface Verdict {
  category: ErrorCategory;
  rule: string;
  /** The condition will not pass by waiting, whatever its category says: a spent quota (or billing limit), or an abort. */
  permanent?: boolean;
}

/** Why a permanent verdict will not pass: a rate limit no wait fixes is a spent quota; anything else is the caller's abort. */
function lastingOf(verdict: Verdict): RetryErrorKind['lasting'] {
  if (!verdict.permanent) return undefined;
  return verdict.category === 'rate_limit' ? 'spent_quota' : 'aborted';
}

/** Vendor error codes (OpenAI `code`) more specific than any type or status. */
const VENDOR_CODES: Record<string, Omit<Verdict, 'rule'>> = {
  context_length_exceeded: { category: 'context_length' },
  insufficient_quota: { category: 'rate_limit', permanent: true },
  invalid_api_key: { category: 'authentication' },
  rate_limit_exceeded: { category: 'rate_limit' },
  server_is_overloaded: { category: 'overloaded' },
  slow_down: { category: 'overloaded' },
  model_not_found: { category: 'invalid_input' },
  invalid_encrypted_content: { category: 'invalid_input' },
  // The Responses API's response.failed codes that decide on their own.
  invalid_prompt: { category: 'invalid_input' },
  vector_store_timeout: { category: 'timeout' },
};

/** Vendor error types (Anthropic `error.type`, OpenAI `type`) that decide on their own. */
const VENDOR_TYPES: Record<string, Omit<Verdict, 'rule'>> = {
  overloaded_error: { category: 'overloaded' },
  rate_limit_error: { category: 'rate_limit' },
  authentication_error: { category: 'authentication' },
  permission_error: { category: 'authorization' },
  billing_error: { category: 'rate_limit', permanent: true },
  insufficient_quota: { category: 'rate_limit', permanent: true },
  timeout_error: { category: 'timeout' },
  not_found_error: { category: 'invalid_input' },
  request_too_large: { category: 'invalid_input' },
  conflict_error: { category: 'state' },
};

/**
 * Catch-all vendor types: they cover several conditions (an OpenAI 503 overload is a
 * `server_error`; a context overflow is an `invalid_request_error`), so the status and the
 * text are asked first and these decide only when neither did.
 */
const GENERIC_TYPES: Record<string, ErrorCategory> = {
  api_error: 'internal',
  server_error: 'internal',
  invalid_request_error: 'invalid_input',
};

const SPEND_CAP =
  /spend limit|usage limit|credit balance|billing|exceeded your current quota|request too large/;

/**
 * The one place that decides what an error is and whether retrying can help (STYLE 4).
 * Order: the caller's own abort/timeout, an upstream in another API's format, specific vendor code or type, context-overflow
 * text (a 400 is too generic to decide alone), HTTP status, socket codes, generic vendor
 * type, then text heuristics.
 * Its own verdict (`retryable`): authentication/authorization, context overflow (its own
 * recovery channel), invalid input and an exhausted quota are final; everything else is
 * retryable. Whether a configuration retries is its retry rule's decision, from the category
 * and `lasting` (lib/protocol/retry-rules.ts): CodeSmith's exclusion rule retries a bad
 * request and a spent quota too.
 */
export function classifyError(error: unknown, options: { nowMs?: number } = {}): Classification {
  const facts = extractErrorFacts(error);
  const verdict = decide(facts);
  const retryAfterMs = parseRetryAfter({ headers: facts.headers, nowMs: options.nowMs ?? Date.now() });
  const lasting = lastingOf(verdict);
  return {
    category: verdict.category,
    rule: verdict.rule,
    retryable: classifierRetryable({ category: verdict.category, ...(lasting ? { lasting } : {}) }),
    ...(lasting ? { lasting } : {}),
    ...(facts.status !== undefined ? { status: facts.status } : {}),
    ...(facts.vendorType !== undefined || facts.vendorCode !== undefined
      ? { vendorType: facts.vendorType ?? facts.vendorCode }
      : {}),
    message: facts.message,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/** The classifier's final categories (lib/protocol/retry-rules.ts): a retry would fail the same way every time. */
export function isRetryableCategory(category: ErrorCategory): boolean {
  return classifierRetryable({ category });
}

function decide(facts: ErrorFacts): Verdict {
  return (
    byOwnAbort(facts) ??
    byAddressRefusal(facts) ??
    byUpstreamFormat(facts) ??
    byVendor(facts) ??
    byContextText(facts) ??
    byStatus(facts) ??
    bySocketCode(facts) ??
    byGenericType(facts) ??
    byName(facts) ??
    byText(facts) ?? { category: 'unknown', rule: 'no rule matched' }
  );
}

/** The watchdog's labelled TimeoutError, the SDK's timeout, or a plain abort by the caller. */
function byOwnAbort(facts: ErrorFacts): Verdict | undefined {
  const timeoutName = facts.names.find((n) => n === 'TimeoutError' || n === 'APIConnectionTimeoutError');
  if (timeoutName) return { category: 'timeout', rule: timeoutName };
  if (facts.topNames.some((n) => n === 'AbortError' || n === 'APIUserAbortError')) {
    if (/time ?out|timed out/.test(facts.text))
      return { category: 'timeout', rule: 'abort with a timeout reason' };
    return { category: 'unknown', rule: 'aborted by the caller', permanent: true };
  }
  return undefined;
}

/** A request-chosen base URL whose name resolved to an address it may not reach (lib/providers/pinned-fetch.ts): the same every time. */
function byAddressRefusal(facts: ErrorFacts): Verdict | undefined {
  return facts.names.includes('BaseUrlAddressError')
    ? { category: 'invalid_input', rule: 'BaseUrlAddressError: the base URL resolves to a refused address' }
    : undefined;
}

/**
 * The upstream answered in another API's stream format (lib/providers/openai-chunks.ts): the
 * base URL points at a server the dialect cannot talk to, and every retry would get the same
 * answer. Decided before the text rules, which would read the quoted record's words.
 */
function byUpstreamFormat(facts: ErrorFacts): Verdict | undefined {
  return facts.topNames.includes('UpstreamFormatError')
    ? {
        category: 'invalid_input',
        rule: "UpstreamFormatError: the upstream speaks another API's stream format",
      }
    : undefined;
}

function byVendor(facts: ErrorFacts): Verdict | undefined {
  const { vendorCode, vendorType } = facts;
  const byCode = vendorCode ? VENDOR_CODES[vendorCode] : undefined;
  if (byCode && vendorCode) return withSpendCap(facts, { ...byCode, rule: `vendor code ${vendorCode}` });
  const byType = vendorType ? VENDOR_TYPES[vendorType] : undefined;
  if (byType && vendorType) return withSpendCap(facts, { ...byType, rule: `vendor type ${vendorType}` });
  return undefined;
}

/** A 429 that waiting will not fix: a spend cap, an exhausted quota, one request over the TPM. */
function withSpendCap(facts: ErrorFacts, verdict: Verdict): Verdict {
  if (verdict.category !== 'rate_limit' || verdict.permanent) return verdict;
  const hit = SPEND_CAP.exec(facts.text);
  return hit ? { ...verdict, rule: `${verdict.rule} + text: '${hit[0]}'`, permanent: true } : verdict;
}

/** Context overflow arrives as a generic 400 / invalid_request_error: only its text tells. */
function byContextText(facts: ErrorFacts): Verdict | undefined {
  if (facts.status !== undefined && facts.status !== 400) return undefined;
  const hit = matchTextRule(facts.text);
  return hit?.rule.category === 'context_length'
    ? { category: 'context_length', rule: hit.label }
    : undefined;
}

function byStatus(facts: ErrorFacts): Verdict | undefined {
  const { status } = facts;
  if (status === undefined) return undefined;
  const rule = `status ${status}`;
  switch (status) {
    case 401:
      return { category: 'authentication', rule };
    case 402:
      return { category: 'rate_limit', rule, permanent: true };
    case 403:
      return { category: 'authorization', rule };
    case 408:
    case 504:
      return { category: 'timeout', rule };
    case 409:
      return { category: 'state', rule };
    case 429:
      return withSpendCap(facts, { category: 'rate_limit', rule });
    case 529:
      return { category: 'overloaded', rule };
    case 503:
      return facts.text.includes('overloaded')
        ? { category: 'overloaded', rule: `${rule} + text: 'overloaded'` }
        : { category: 'internal', rule };
  }
  if (status >= 500) return { category: 'internal', rule };
  return { category: 'invalid_input', rule };
}

const SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function bySocketCode(facts: ErrorFacts): Verdict | undefined {
  const timeout = facts.codes.find((c) => TIMEOUT_CODES.has(c));
  if (timeout) return { category: 'timeout', rule: `code ${timeout}` };
  const socket = facts.codes.find((c) => SOCKET_CODES.has(c));
  return socket ? { category: 'network', rule: `code ${socket}` } : undefined;
}

function byGenericType(facts: ErrorFacts): Verdict | undefined {
  // A Responses API response.failed has a code and no type: its server_error is the same catch-all.
  const vendorType = facts.vendorType ?? (facts.vendorCode === 'server_error' ? facts.vendorCode : undefined);
  const category = vendorType ? GENERIC_TYPES[vendorType] : undefined;
  if (!category || !vendorType) return undefined;
  const rule = `vendor ${facts.vendorType ? 'type' : 'code'} ${vendorType}`;
  if (category === 'internal' && facts.text.includes('overloaded')) {
    return { category: 'overloaded', rule: `${rule} + text: 'overloaded'` };
  }
  return { category, rule };
}

/** A SyntaxError from JSON.parse is a record the SDK could not read: a cut or garbled stream. */
function byName(facts: ErrorFacts): Verdict | undefined {
  return facts.topNames.includes('SyntaxError') ? { category: 'parse', rule: 'SyntaxError' } : undefined;
}

function byText(facts: ErrorFacts): Verdict | undefined {
  const hit = matchTextRule(facts.text);
  if (!hit) return undefined;
  return { category: hit.rule.category, rule: hit.label, ...(hit.rule.permanent ? { permanent: true } : {}) };
}
