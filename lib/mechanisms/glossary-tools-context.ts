import { formatMs, PRESETS } from '@/lib/protocol';
import { DEFAULTS as D } from './defaults';
import type { GlossaryEntry } from './module';

/** The glossary's terms for tool calls, the context window and the output cap. */
export const TOOL_CONTEXT_TERMS = [
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
] as const satisfies readonly GlossaryEntry[];
