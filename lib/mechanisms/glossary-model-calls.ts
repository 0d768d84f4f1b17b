import { formatMs, PRESETS } from '@/lib/protocol';
import { DEFAULTS as D } from './defaults';
import type { GlossaryEntry } from './module';

/** The glossary's terms for a model call and its stream: the retry ladder, its classifier and fallbacks, the stream's watchdogs. */
export const MODEL_CALL_TERMS = [
  // The retry ladder
  {
    id: 'ladder',
    term: 'ladder (retry ladder)',
    mechanism: 'retry',
    see: ['rung', 'backoff'],
    definition:
      'The sequence of attempts one model call makes after errors: each failed attempt is classified, and the ladder decides whether to try again, how long to wait first, and when to give up and tell the user.',
  },
  {
    id: 'rung',
    term: 'rung',
    mechanism: 'retry',
    see: ['silent-retry', 'degrade', 'surface'],
    definition:
      'One step of the ladder, named for what the user experiences: a silent retry (nothing shown), degrade (the call carries on, on the fallback model), or surface (the error reaches the user).',
  },
  {
    id: 'silent-retry',
    term: 'silent retry',
    mechanism: 'retry',
    definition:
      'A retry the user does not need to hear about: the same call is sent again after a wait, on the same model. Most transient errors clear within one or two waits.',
  },
  {
    id: 'degrade',
    term: 'degrade',
    mechanism: 'fallback',
    definition: `The rung after the fallback model takes over (s11: ${D.fallbackAfter} consecutive 529s): the call keeps retrying, on a smaller model, so the answer may be plainer than the busy model’s. The retries after the switch are marked degrade.`,
  },
  {
    id: 'surface',
    term: 'surface',
    mechanism: 'retry',
    definition:
      'The end of the ladder: the error is not retryable or the budget is spent, so it reaches the user as it is. Nothing more is retried: the run ends with it (terminate: retries_exhausted or model_error).',
  },
  {
    id: 'retry-budget',
    term: 'retry budget (max attempts)',
    mechanism: 'retry',
    definition: `How many attempts one call may make (${D.retries} retries after the first by default). Each account keeps its own budget, so a failing title call never spends the conversation’s retries.`,
  },
  {
    id: 'backoff',
    term: 'backoff',
    mechanism: 'retry',
    see: ['jitter', 'retry-after'],
    definition: `The wait before a retry, growing with each failure (${D.backoffSteps.join(', ')} … capped at ${D.backoffCap} by default) so a struggling service gets room to recover instead of a burst of repeats.`,
  },
  {
    id: 'fixed-backoff',
    term: 'fixed backoff (engine layer)',
    mechanism: 'retry',
    see: ['backoff', 'sdk-retry'],
    definition: `CodeSmith's engine layer does not back off: a rate limit sleeps a fixed ${formatMs(PRESETS.codesmith.retry.fixedDelayMs)} (the server's Retry-After is only a string by the time it gets there, so it is not read) and anything else is sent again at once. The retry setting backoff: fixed.`,
  },
  {
    id: 'sdk-retry',
    term: 'SDK retry',
    mechanism: 'one-retry-layer',
    see: ['retry-amplification'],
    definition:
      "The vendor SDK's own retry (maxRetries on its client): a failed HTTP request (408, 409, 429, 5xx, a dropped connection) is sent again inside the SDK, before the loop hears of it. Each is an sdk_retry event, numbered as an HTTP request of its own.",
  },
  {
    id: 'retry-amplification',
    term: 'retry amplification',
    mechanism: 'one-retry-layer',
    see: ['sdk-retry', 'retry-budget'],
    definition:
      'Retry layers stacked on one another multiply: an SDK that tries each request up to 4 times, under a loop that tries each call up to 4 times, sends up to 16 requests for one call — into a service that is already failing.',
  },
  {
    id: 'jitter',
    term: 'jitter',
    mechanism: 'retry',
    definition: `A small random change to each backoff wait (${D.jitter} by default) so many clients that failed together do not all retry at the same instant.`,
  },
  {
    id: 'retry-after',
    term: 'Retry-After',
    mechanism: 'retry-after',
    definition: `A response header in which the vendor says how long to wait. When present it is honoured instead of the computed backoff (capped at ${D.retryAfterCap}), because the server knows its own state better than our guess.`,
  },
  {
    id: 'whitelist-retry',
    term: 'retryable error',
    mechanism: 'classifier',
    see: ['error-category'],
    definition:
      'What the classifier calls final: authentication, permission and invalid-request errors (a 400 that the same request would get again) and a spent quota or billing limit; context-length errors go to the context channel. Everything else is retryable, since retrying a transient error is cheap and failing the run is not. Whether a configuration retries is its own rule, shown as a table under each preset: CodeSmith’s exclusion rule retries a bad request and a spent quota too (only authentication, permission and context overflow fail at once), s11 retries only 429 and 529.',
  },
  {
    id: 'spent-quota',
    term: 'spent quota (insufficient_quota)',
    mechanism: 'classifier',
    see: ['whitelist-retry'],
    definition:
      'The account has run out of money or credit, not of rate: OpenAI answers with a 429 like a rate limit, but its body says insufficient_quota (Anthropic sends a 400, "credit balance is too low"). No wait fixes it, so the classifier calls it final and, under its rule, the call ends at once with the vendor’s words (CodeSmith’s exclusion rule files it with rate limits and retries it within the budget).',
  },
  {
    id: 'error-category',
    term: 'error category',
    mechanism: 'classifier',
    definition:
      'What the one classifier decided an error is (rate limit, overloaded, timeout, network, context length, authentication …) from its status, vendor error type and message text. Every mechanism asks the same classifier.',
  },
  {
    id: 'account',
    term: 'retry account (foreground, background, context)',
    mechanism: 'background-retry',
    definition:
      'Each kind of call books its retries on its own account with its own budget: the conversation (foreground), auxiliary calls such as titles and summaries (background), and context recovery.',
  },
  {
    id: 'background-account',
    term: 'background account',
    mechanism: 'background-retry',
    definition: `Auxiliary calls (run title, summaries) retry on a budget of their own (${D.backgroundRetries} retries by default) and only for network, rate-limit and timeout errors: they are nice to have, so they must never hold up or drain the main conversation.`,
  },
  {
    id: 'fallback-model',
    term: 'fallback model',
    mechanism: 'fallback',
    definition: `After ${D.fallbackAfter} consecutive overloaded (529) errors the call switches to a configured fallback model, because a busy model tends to stay busy while another one has capacity.`,
  },
  {
    id: 'cross-vendor-fallback',
    term: 'cross-vendor fallback',
    mechanism: 'fallback',
    lesson: 'cross-vendor-fallback',
    see: ['fallback-model', 'takeover'],
    definition:
      'A fallback that names another vendor: after the same streak of overloaded errors the run swaps to that vendor between two attempts of one call, its history rendered in the new wire format, because an outage can take a whole vendor down and not only one model.',
  },
  {
    id: 'stream-error-cap',
    term: 'stream error cap',
    mechanism: 'stream-error-cap',
    definition: `After ${D.streamErrorCap} consecutive stream errors the call fails, whatever retry budget is left: a stream that keeps breaking is not going to heal by trying again.`,
  },
  // The stream
  {
    id: 'watchdog',
    term: 'stream idle watchdog',
    mechanism: 'watchdog',
    see: ['empty', 'partial', 'keepalive'],
    definition: `A deadline on each wait for the next stream event (${D.watchdogBase} by default, plus ${D.watchdogPerRetry} for every retry already spent). A connection can stall without closing; the watchdog aborts it so the loop does not hang forever.`,
  },
  {
    id: 'watchdog-window',
    term: 'watchdog window',
    mechanism: 'watchdog',
    definition:
      'How long the watchdog waits for the next stream event. It restarts at every event and is widened on each retry, so a slow but live vendor is given more patience.',
  },
  {
    id: 'empty',
    term: 'Empty',
    mechanism: 'partial-kept',
    see: ['partial'],
    definition:
      'The watchdog fired before any content arrived: nothing was paid for and nothing is lost, so the attempt is retried at once.',
  },
  {
    id: 'partial',
    term: 'Partial',
    mechanism: 'partial-kept',
    see: ['empty', 'continuation'],
    definition:
      'The stream broke after some content arrived: what arrived is kept and not re-requested, because a retry would bill the same output twice and may say something different.',
  },
  {
    id: 'keepalive',
    term: 'keepalive',
    mechanism: 'watchdog',
    definition:
      'A ping or comment line a vendor sends to keep a quiet connection open. The SDK drops it, so it never resets the watchdog: a stream of nothing but keepalives is still a stall.',
  },
  {
    id: 'ttfb',
    term: 'time to first byte (ttfb)',
    definition:
      "From the request leaving to the vendor's first stream event: the model's latency, measured on the run clock.",
  },
] as const satisfies readonly GlossaryEntry[];
