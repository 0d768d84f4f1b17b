import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const { retries } = DEFAULTS;

/** Requests from the fourth on: the account's quota is spent for the rest of the run. */
const QUOTA_FROM = 4;

export const classifier: Lesson = {
  slug: 'classifier',
  title: 'The classifier: errors that must not be retried',
  mechanism: 'classifier',
  failure: 'Two HTTP 429s in one run: the first is a rate limit, the second a spent quota.',
  config: {
    provider: { vendor: 'sim-openai' },
    preset: 'codesmith',
    // The project's classifier rule. CodeSmith's own (exclusion) retries a spent quota: the off side shows what it does.
    recovery: { retry: { retryOn: 'transient' } },
    seed: 79,
    faults: {
      rules: [
        {
          id: 'rate-limit',
          label: '429 rate limit on request 1',
          when: { kind: 'requests', numbers: [1] },
          action: { type: 'http_error', status: 429 },
        },
        {
          id: 'quota',
          label: `429 quota spent from request ${QUOTA_FROM} on`,
          when: { kind: 'requests', numbers: Array.from({ length: 40 }, (_, i) => QUOTA_FROM + i) },
          action: { type: 'http_error', status: 429, quota: true },
        },
      ],
      tools: [],
    },
  },
  timeScale: 0.1,
  text: {
    happens:
      'A status code does not say whether waiting helps. OpenAI answers a busy minute and an empty account alike with a 429; only the body says which (rate_limit_exceeded or insufficient_quota). An expired key (401), a missing permission (403) or a malformed request (400) fail the same way however long one waits.',
    does: 'The one classifier reads the vendor’s code and type before the status: rate_limit_exceeded is a rate limit, retried after a backoff; insufficient_quota is a spent quota and — like an authentication, permission or invalid-request error — ends the call at once, saying why: a person has to act, and no wait will do it for them. That is the project’s rule (retry on: transient), set here over CodeSmith’s preset. CodeSmith’s own rule is exclusion: only authentication, permission and context overflow fail at once, and its text classifier files “quota” with rate limits, so it retries this quota as the off side does — it judges a few bounded retries cheaper than a passing error wrongly called final. Each side’s retry table, below, shows the two rules.',
    costs: `On: the rate limit at turn 1 is retried once, after 1.0 s; the spent quota at turn 3 ends the run at once, after one request, with the vendor’s own words. Off (every error retried, the classifier ignored — on this fault plan exactly what CodeSmith’s exclusion rule does): the spent quota is retried ${retries} times — ${retries} more requests and 7.5 s of waiting (minutes, with a longer ladder) — and the run ends at the same turn with the same error, only later.`,
  },
  expect: {
    on: {
      reason: 'model_error',
      complete: false,
      says: 'the rate limit is retried; the spent quota ends the run at once',
    },
    off: {
      reason: 'retries_exhausted',
      complete: false,
      says: 'the spent quota is retried like a rate limit until the budget is gone',
    },
  },
  criterion: {
    says: 'requests and waiting spent on an error no wait can fix: model requests and failed attempts',
    lines: { attempts: 'low', failedAttempts: 'low' },
  },
  diverges: { turn: 3, on: 'retry_declined' },
};
