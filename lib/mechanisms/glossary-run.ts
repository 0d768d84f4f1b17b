import { formatMs, PRESETS } from '@/lib/protocol';
import { DEFAULTS as D } from './defaults';
import type { GlossaryEntry } from './module';

/** The glossary's terms for taking a run over, the faults injected into it, and the run as a whole. */
export const RUN_TERMS = [
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
