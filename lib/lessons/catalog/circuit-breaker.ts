import type { Lesson } from '../lesson';

export const circuitBreaker: Lesson = {
  slug: 'circuit-breaker',
  title: 'The summary circuit breaker',
  mechanism: 'circuit-breaker',
  failure: 'Every summary call fails (HTTP 500) while the context keeps needing compaction.',
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-16k' },
    preset: 'codesmith',
    scenario: 'growing-context',
    seed: 53,
    recovery: { compaction: { thresholdRatio: 0.3 } },
    faults: { rules: [{ id: 'summarizer', label: '500 on summary calls', target: 'background', when: { kind: 'always' }, action: { type: 'http_error', status: 500 } }], tools: [] },
  },
  timeScale: 1,
  text: {
    happens: 'Compaction itself calls a model. When that call is broken, a loop that asks for a summary every turn pays for a failing request every turn.',
    does: 'After 3 failed summary calls in a row the breaker opens: compaction stops calling the model for 5 minutes of run time and falls back to local steps; then one probe is let through (half-open). A manual compact bypasses it.',
    costs: 'On: a few failed summary requests, then the breaker refuses without calling. Off: a failing summary request on every turn that needs one — more than twice as many wasted requests, for the same outcome (failed requests bill nothing here, so it shows in requests and errors, not dollars).',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'the breaker opens after 3 failed summaries' },
    off: { reason: 'end_turn', complete: true, says: 'keeps calling the broken summarizer every turn' },
  },
  diverges: { turn: 7, on: 'breaker' },
};
