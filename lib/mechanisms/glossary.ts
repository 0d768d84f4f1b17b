import { formatMs, PRESETS } from '@/lib/protocol';
import { DEFAULTS as D } from './defaults';
import { MECHANISMS } from './mechanisms';
import { type GlossaryEntry, placeAfter } from './module';
import { MODULE_ABOUT } from './modules/about';

/**
 * Every term the UI shows, defined once in the project's own words. The /glossary page draws
 * this list (an anchor per term), the inspector quotes an entry beside the event it explains,
 * and `mechanism` leads to the lesson page where the mechanism plays on and off.
 * Numbers quoted here are read from the presets (./defaults.ts), so they are the engine's own
 * defaults; a run's own numbers are in its events.
 */

export type { GlossaryEntry } from './module';

/** The entries written here; the modules' entries come from their folders (./modules/about.ts). */
const CORE = [
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
  // Tools
  {
    id: 'safe-executor',
    term: 'safe executor',
    mechanism: 'safe-executor',
    see: ['failure-budget', 'short-circuit', 'tool-error'],
    definition:
      'The layer that runs tools for the loop: it never throws, turns every failure into an is_error result with actionable text, and enforces budgets per tool.',
  },
  {
    id: 'tool-error',
    term: 'specific tool error',
    mechanism: 'safe-executor',
    definition:
      'A tool failure returned to the model as a result that says what to do next (for example the sibling file names when a path does not exist), so the model can correct itself instead of guessing.',
  },
  {
    id: 'arg-repair',
    term: 'tool-argument repair ladder',
    mechanism: 'arg-repair',
    see: ['tool-error'],
    definition:
      'Malformed tool arguments climb a ladder before the model is asked again: parse; repair the JSON text with jsonrepair (trailing commas, single quotes, unquoted keys, a cut-off closing brace); coerce values the schema takes only one way ("7" for a number, "true" for a boolean); and only then re-ask with the specific error. Each rung that changes something is an event, and a repaired call is marked as repaired.',
  },
  {
    id: 'failure-budget',
    term: 'failure budget',
    mechanism: 'failure-budget',
    definition: `Each tool may fail ${D.failureBudget} times in a run; then it is disabled for the rest of the run, so a broken tool stops costing turns. An exact repeat answered by a short-circuit does not count.`,
  },
  {
    id: 'short-circuit',
    term: 'short-circuit',
    mechanism: 'failure-budget',
    definition:
      'An exact repeat of a call that already failed is answered with the earlier failure without running it again: the same input will fail the same way.',
  },
  {
    id: 'check-rate',
    term: 'check rate',
    see: ['loop-guard'],
    definition: `A safety limit, the same in every preset: a run may start at most ${PRESETS.codesmith.tools.checkRateMax} sandboxed checks (run_check) in any ${formatMs(PRESETS.codesmith.tools.checkRateWindowMs)} of run time; one more is answered at once without running, saying when the next may run. A model that calls its check in a loop spends its own turns, not the machine every run shares.`,
  },
  {
    id: 'loop-guard',
    term: 'loop guard',
    mechanism: 'loop-guard',
    see: ['blocked', 'halt'],
    definition: `Watches for a model going in circles: identical call #${D.blockRepeatAt} is blocked, ${D.warnAfterFailures} consecutive failures draw a warning, and ${D.haltAfterFailures} halt the run.`,
  },
  {
    id: 'blocked',
    term: 'blocked call',
    mechanism: 'loop-guard',
    definition: `A tool call the loop guard refused because the same tool was already called with the same arguments ${D.blockRepeatAt - 1} times.`,
  },
  {
    id: 'halt',
    term: 'tool halt',
    mechanism: 'loop-guard',
    lesson: 'loop-guard-halt',
    definition: `The loop guard ended the run after ${D.haltAfterFailures} consecutive failures of one tool, whatever the arguments: the model is not making progress, and each more call is paid for.`,
  },
  {
    id: 'truncation',
    term: 'output truncation',
    mechanism: 'output-truncation',
    definition: `Tool output over ${D.truncateChars} characters is cut, with a note telling the model how to get the rest (an offset, a narrower pattern), so one big file cannot flood the context.`,
  },
  // Context
  {
    id: 'context-window',
    term: 'context window',
    definition:
      'The most tokens a model accepts in one request. Compaction keeps each request below a threshold under it.',
  },
  {
    id: 'prompt-cache',
    term: 'prompt cache',
    mechanism: 'prompt-caching',
    see: ['cache-breakpoint', 'cache-hit-rate'],
    definition:
      "The vendor's store of prompt prefixes it has already processed: a request that starts with a cached prefix pays a fraction of the input price for it (Anthropic: a tenth; OpenAI: half or less). A prefix lives five minutes without use; a changed byte ends it there.",
  },
  {
    id: 'cache-breakpoint',
    term: 'cache breakpoint (cache_control)',
    mechanism: 'prompt-caching',
    definition:
      "Anthropic's marker on a block that says: cache the prompt up to here. At most four a request; a prefix shorter than the model's minimum (1,024 tokens for Sonnet, 2,048 for Haiku) is not cached. Writing costs 1.25× the input price. OpenAI needs no marker: it caches every prompt of 1,024 tokens or more by itself.",
  },
  {
    id: 'cache-hit-rate',
    term: 'cache hit rate',
    mechanism: 'prompt-caching',
    definition:
      "The share of a run's input tokens the vendors reported reading from their prompt caches; beside it, what the cache saved against sending them all as plain input.",
  },
  {
    id: 'old-result-compaction',
    term: 'old-result compaction',
    mechanism: 'old-result-compaction',
    see: ['stub'],
    definition: `Tool results over ${D.oldResultMinChars} characters older than the last ${D.keepRecentIterations} turns are sent as stubs. Only the copy sent to the vendor changes; the log keeps every result.`,
  },
  {
    id: 'stub',
    term: 'stub',
    mechanism: 'old-result-compaction',
    definition:
      'The short text sent in place of an old tool result, saying what it was and how to get it back.',
  },
  {
    id: 'micro-compact',
    term: 'micro-compact',
    mechanism: 'overflow-waterfall',
    definition:
      'The first rung of overflow recovery: clear old tool results from the request, with no model call.',
  },
  {
    id: 'proactive-summary',
    term: 'proactive summary',
    mechanism: 'proactive-summary',
    definition: `When a request passes the threshold (${D.proactiveThreshold} of the window by default), a background call summarises the older conversation and the summary is sent in its place, before the vendor ever refuses the request.`,
  },
  {
    id: 'overflow-waterfall',
    term: 'overflow waterfall',
    mechanism: 'overflow-waterfall',
    see: ['micro-compact', 'hard-trim'],
    definition: `What happens when the vendor says the prompt is too long: micro-compact, then a forced summary, then a hard trim, within a budget of ${D.waterfallBudget} recoveries; once a call goes through the budget starts over.`,
  },
  {
    id: 'hard-trim',
    term: 'hard trim',
    mechanism: 'overflow-waterfall',
    definition: `The last resort: drop the oldest messages (keeping at least ${D.trimFloor}) with a note that they were removed. No model call, so it works even when summaries fail.`,
  },
  {
    id: 'reactive-compact',
    term: 'reactive compact',
    mechanism: 'reactive-compact',
    definition: `The s11 preset’s overflow answer: keep at most the last ${D.reactiveKeep} messages (never separating a tool call from its result), add a note with the task, and retry — once per run.`,
  },
  {
    id: 'circuit-breaker',
    term: 'circuit breaker',
    mechanism: 'circuit-breaker',
    see: ['half-open'],
    definition: `Summary calls stop being attempted after ${D.breakerFailures} consecutive failures (open), for ${D.breakerCooldown} of run time, so a broken summariser is not called before every turn. A manual Compact now bypasses it.`,
  },
  {
    id: 'half-open',
    term: 'half-open (probe)',
    mechanism: 'circuit-breaker',
    lesson: 'breaker-half-open',
    definition:
      'The breaker state after its cool-down: the next summary call is a probe; success closes the breaker, failure opens it again for another cool-down. It is how a breaker finds out that an outage is over.',
  },
  // Output cap
  {
    id: 'output-cap',
    term: 'output cap (max tokens)',
    mechanism: 'output-escalation',
    definition:
      'The most tokens a response may have. A response cut by it ends with stop reason max_tokens (or length).',
  },
  {
    id: 'cap-escalation',
    term: 'output cap escalation',
    mechanism: 'output-escalation',
    definition: `On the first cut response the same request is sent again with a bigger cap (s11: ${D.outputCap} → ${D.escalatedCap}); the cut output is dropped, since the new answer replaces it.`,
  },
  {
    id: 'continuation',
    term: 'continuation',
    mechanism: 'output-escalation',
    definition: `After escalation the cut output is kept and the model is asked to go on from where it stopped, at most ${D.maxContinuations} times.`,
  },
  {
    id: 'refused-truncated',
    term: 'cut tool call refused',
    mechanism: 'refuse-cut-calls',
    definition:
      'A tool call whose arguments were cut by the cap does not parse; it is refused and the model is asked to resend it, rather than run with half its input.',
  },
  // Takeover
  {
    id: 'takeover',
    term: 'takeover (swap)',
    mechanism: 'takeover-handling',
    see: ['signature', 'foreign-thinking', 'naive-takeover'],
    definition:
      'The run moves to another vendor or model at a request boundary and the new one carries on with the same conversation, rendered in its own format.',
  },
  {
    id: 'signature',
    term: 'signature (credentials of thought)',
    mechanism: 'takeover-handling',
    definition:
      'A vendor signs its thinking blocks; it accepts them back only from itself and the model that wrote them. On a takeover the signatures must be dropped or the new vendor refuses the request.',
  },
  {
    id: 'foreign-thinking',
    term: 'foreign thinking',
    mechanism: 'takeover-handling',
    definition:
      "Thinking written by another vendor's model. It is dropped, or kept as a marked plain-text note, by the target's rules.",
  },
  {
    id: 'reasoning-placeholder',
    term: 'reasoning placeholder',
    mechanism: 'takeover-handling',
    lesson: 'reasoning-placeholder',
    see: ['foreign-thinking'],
    definition:
      'What a DeepSeek-style reasoner is sent as reasoning_content on an earlier tool-call turn that has no reasoning of its own (one another vendor wrote): "(reasoning omitted)". The vendor refuses a tool-call turn without the field; the placeholder meets the rule without passing foreign thinking off as its own.',
  },
  {
    id: 'naive-takeover',
    term: 'naive takeover',
    mechanism: 'takeover-handling',
    definition:
      'Sending the history to the new vendor as it was, credentials included. After a handled swap the takeover panel shows, one click away, the real error the strict vendor would have answered a naive one; after a naive swap, the error it did answer.',
  },
  {
    id: 'fork',
    term: 'fork',
    mechanism: 'takeover-handling',
    lesson: 'fork-onto-responses',
    see: ['takeover', 'encrypted-reasoning'],
    definition:
      "A new run that starts from a stored run's conversation at a chosen turn, so one can try a different configuration from the same point. Forked onto another vendor or model, its first request is a takeover.",
  },
  {
    id: 'encrypted-reasoning',
    term: 'encrypted reasoning (Responses API)',
    mechanism: 'takeover-handling',
    lesson: 'fork-onto-responses',
    see: ['signature', 'fork'],
    definition:
      "OpenAI's Responses API hands reasoning back sealed, as a reasoning item's encrypted_content, and accepts it back only from the model that sealed it; anything else (another model's, or Anthropic's signed thinking sent in its place) is its 400 invalid_encrypted_content.",
  },
  {
    id: 'cassette',
    term: 'cassette',
    see: ['off-recording', 'fault'],
    definition:
      "A run's model traffic as it crossed the wire: each request as sent (no key, a few headers) and each response's bytes in the chunks they arrived in, with the time between them. Replayed as a vendor it feeds the same bytes to the same SDK, so a recorded session can run again offline under any fault and recovery preset.",
  },
  {
    id: 'off-recording',
    term: 'off the recording',
    see: ['cassette'],
    definition:
      'A replayed run asked for something the cassette does not hold: another recovery config, prompt or fault changed the history, so the recorded answer no longer fits. The run says where and what differs, then stops or goes on on the simulated model, as its config chose.',
  },
  // Faults and the run
  {
    id: 'fault',
    term: 'fault',
    definition:
      'A failure injected beneath the SDK at the fetch level (a vendor error, a stall, keepalives only, a dropped connection …), so the SDK meets it exactly as it would on a bad day.',
  },
  {
    id: 'trace',
    term: 'trace (OTLP export)',
    mechanism: 'retry',
    lesson: 'reading-a-trace',
    see: ['span'],
    definition:
      'A run exported as OpenTelemetry (OTLP/JSON, the GenAI conventions) from the OTLP link on its run page: one invoke_agent span for the run, a chat span per model request attempt, an execute_tool span per tool call, and every Loop Lab event as a loop_lab.event span event — the same run, readable in any tracing tool and importable back.',
  },
  {
    id: 'span',
    term: 'span',
    mechanism: 'retry',
    lesson: 'reading-a-trace',
    see: ['trace'],
    definition:
      'One timed step in a trace, under its parent: a chat span is one request attempt (http.request.resend_count is its retry number; a failed attempt has status ERROR and error.type), and the run’s own span is ERROR only when the run ended without finishing its work.',
  },
  {
    id: 'time-scale',
    term: 'time scale',
    definition: `How fast run time passes against the wall clock: at 0.05 a ${D.watchdogBase} wait takes ${formatMs(PRESETS.codesmith.watchdog.baseMs * 0.05)}. Labels always show run time.`,
  },
  {
    id: 'virtual-clock',
    term: 'virtual clock',
    definition:
      'Run time that jumps to the next deadline when nothing else can run: a run with long waits finishes in milliseconds with the same timestamps every time.',
  },
  {
    id: 'task-verdict',
    term: 'task verdict',
    see: ['shipped-tests'],
    definition:
      "Whether the work was done, apart from how the loop ended: the scenario's own check, run on the final workspace (done, not done, not checkable).",
  },
  {
    id: 'shipped-tests',
    term: 'shipped tests',
    mechanism: 'shipped-tests',
    see: ['task-verdict'],
    definition:
      "The task verdict runs the scenario's test files as the scenario shipped them, against the model's final code: a model that rewrites a failing test makes run_check pass, not the task done. The verdict names any test file the model edited, requires every shipped test by name, and runs hidden tests (inputs the model never saw).",
  },
  {
    id: 'tool-approval',
    term: 'tool approval',
    mechanism: 'tool-approval',
    see: ['shipped-tests'],
    definition:
      'The tool calls a config names (every call, the ones that change the workspace, or named tools) wait for a decision before they run: approve, deny with a message the model receives as the call’s error result, or edit the arguments. With a timeout, a call nobody decides on in that much run time is denied.',
  },
  {
    id: 'mcp-reconnect',
    term: 'MCP reconnect',
    mechanism: 'mcp-reconnect',
    definition:
      'An MCP server that crashes, sends a malformed message or loses its session is started again after a backoff on the run’s clock (bounded tries), and its tools are listed again; off, the server is gone for the rest of the run and the model is told not to call its tools again.',
  },
  {
    id: 'terminate',
    term: 'terminate reason',
    see: ['task-verdict'],
    definition:
      "Why the loop ended (end_turn, retries_exhausted, tool_halt, max_tokens, run_time_budget …). Every run's log ends with exactly one terminate event.",
  },
  {
    id: 'mechanism-port',
    term: 'mechanism port (strategy)',
    see: ['terminate'],
    definition:
      'The named points where a mechanism plugs into the loop — before a request, on a stream part, on an error, after a response, when the context grows, around the tool calls, before the run ends — each handing it the run clock, the log and its config, and acting on the decision it returns. A strategy of your own (a TypeScript file given to the CLI or a sweep) plugs in the same way; each of its decisions is a mechanism_decision event with its reason.',
  },
  {
    id: 'run-budgets',
    term: 'run budgets',
    definition:
      'Limits on iterations, cost, run time and model requests. Whatever else fails, one of them ends the run, so every log ends.',
  },
] as const satisfies readonly GlossaryEntry[];

type ModuleGlossaryId = (typeof MODULE_ABOUT)[number]['glossary'][number]['id'];

/** Every entry, in the page's order: each module's entries after the one it names. */
export const GLOSSARY: readonly ((typeof CORE)[number] | (GlossaryEntry & { id: ModuleGlossaryId }))[] =
  placeAfter<GlossaryEntry, GlossaryEntry>(
    CORE,
    MODULE_ABOUT.map((about) => ({ items: about.glossary, after: about.glossaryAfter })),
    (e) => e.id,
  ) as (GlossaryEntry & { id: ModuleGlossaryId })[];

export type GlossaryId = (typeof GLOSSARY)[number]['id'];

const BY_ID: ReadonlyMap<string, GlossaryEntry> = new Map(GLOSSARY.map((e) => [e.id, e]));

/** The entry for a term id (typed, so a typo is a compile error). */
export function glossaryEntry(id: GlossaryId): GlossaryEntry {
  return BY_ID.get(id)!;
}

/** Where a term is defined: its anchor on the glossary page. */
export function glossaryHref(id: GlossaryId): string {
  return `/glossary#${id}`;
}

/** The lesson page where a term's mechanism plays on and off, from the one mechanisms table. */
export function lessonHref(entry: GlossaryEntry): string | undefined {
  if (!entry.mechanism) return undefined;
  return `/lessons/${entry.lesson ?? MECHANISMS[entry.mechanism].lessonSlug}`;
}
