import type { Lesson } from '../lesson';

export const partialVsEmpty: Lesson = {
  slug: 'partial-vs-empty',
  title: 'Partial vs Empty',
  mechanism: 'partial-kept',
  failure: 'The connection drops at the very end of a long answer, after almost all of it has arrived.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    policy: 'long-output',
    seed: 17,
    // A long answer, but not the preset's full 8,192 tokens: every streamed token costs this
    // machine its own time when played live, whatever the time scale (see below).
    maxOutputTokens: 5_000,
    faults: {
      rules: [
        {
          id: 'drop',
          label: 'connection dropped before the last record',
          when: { kind: 'requests', numbers: [1] },
          action: { type: 'drop', during: 'final' },
        },
      ],
      tools: [],
    },
  },
  // Played live, each streamed token carries the machine's own time: with the preset's 8,192-token
  // cap (~2,500 deltas a side) the off side took 28.8 s through `next start` at 0.04 under a load
  // of ~20, most of it that per-token cost, not the scaled waits. A 5,000-token answer (~1,570
  // deltas) and 0.03 leave room for the page's own rendering beside it (`npm run bench`).
  timeScale: 0.03,
  text: {
    happens:
      'A stream that breaks before any content (Empty) has cost nothing and can simply be asked again. A stream that breaks after content arrived (Partial) has already been generated — and billed.',
    does: 'CodeSmith keeps a Partial: the text that arrived is presented as it is and the run stops there, marked incomplete — never re-requested from the start, so the same output is never paid for twice. (A project option, off here, asks the model to continue instead.)',
    costs:
      'On: the person has the answer that arrived, at once, and knows it is cut. Off (no watchdog path, so the Partial is treated like any stream error): after a backoff the whole answer is generated again from the first token — a second stream as long as the first, so the wait is spent twice — and a real vendor bills the lost part too (the simulated one reports no usage for a cut stream, so the totals here show only the second answer’s 4,965 output tokens).',
  },
  expect: {
    on: {
      reason: 'partial_response',
      complete: false,
      says: 'keeps and presents what arrived; no second bill',
      byDesign: 'Partial presented',
    },
    off: { reason: 'end_turn', complete: true, says: 'throws the partial answer away and starts over' },
  },
  criterion: {
    says: 'time and cost until the person has an answer, and output paid for twice: run time, cost, tokens spent on the thrown-away attempt, model requests',
    lines: { durationMs: 'low', usd: 'low', wastedTokens: 'low', attempts: 'low' },
  },
  diverges: { turn: 1, on: 'retry_declined' },
};
