import type { Lesson } from '../lesson';

export const readingATrace: Lesson = {
  slug: 'reading-a-trace',
  title: 'Reading a run’s trace',
  mechanism: 'retry',
  failure: 'The vendor answers both requests of turn 3 with HTTP 500; the third gets through.',
  config: {
    provider: { vendor: 'sim-openai' },
    preset: 'codesmith',
    seed: 89,
    faults: {
      rules: [
        {
          id: 'server-error',
          label: '500 on requests 3 and 4',
          when: { kind: 'requests', numbers: [3, 4] },
          action: { type: 'http_error', status: 500 },
        },
      ],
      tools: [],
    },
  },
  timeScale: 0.5,
  text: {
    happens:
      'A run’s story is also its trace. Each run exports as OpenTelemetry (OTLP/JSON with the GenAI conventions: the OTLP link on its run page), so it can be read in any tracing tool beside the rest of a system — and a retry that the person never saw is still there to find. When both runs end, the report below lists each export span by span.',
    does: 'In the export the run is one invoke_agent span. Each model request attempt is a chat span under it, its retry number in http.request.resend_count, a failed one with status ERROR and error.type; each tool call is an execute_tool span. Every Loop Lab event rides along as a loop_lab.event span event, so the wait and its reason are in the trace too. With the retry ladder on, the failed attempts are ERROR spans inside a run whose own span carries no error.',
    costs:
      'On: 12 chat spans and 8 execute_tool spans under one invoke_agent span. Turn 3 is three chat spans in a row, resend_count 0, 1 and 2; the first two have status ERROR and error.type server_error, and each carries a retry_scheduled event with its wait (0.9 s, then 1.9 s); the agent span has no error. Off: the trace ends at turn 3 with one ERROR chat span, and the invoke_agent span is ERROR too, its message the vendor’s words and “retry is off in this configuration”.',
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: 'two ERROR chat spans at turn 3, then the run goes on; the agent span has no error',
    },
    off: {
      reason: 'model_error',
      complete: false,
      says: 'the trace stops at the first ERROR chat span; the agent span is ERROR',
    },
  },
  criterion: {
    says: 'the person gets the work done: the loop finishes, the task is done, and no error reaches them',
    lines: { complete: 'high', verdict: 'high', errorsSeen: 'low' },
  },
  diverges: { turn: 3, on: 'retry_scheduled' },
  trace: true,
};
