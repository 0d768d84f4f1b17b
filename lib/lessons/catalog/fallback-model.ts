import type { Lesson } from '../lesson';

export const fallbackModel: Lesson = {
  slug: 'fallback-model',
  title: 'The fallback model',
  mechanism: 'fallback',
  failure: 'The main model is overloaded for the whole run; its smaller sibling is fine.',
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
    preset: 's11',
    seed: 13,
    faults: {
      rules: [{ id: 'busy-model', label: '529 on claude-sim-sonnet', model: 'claude-sim-sonnet', when: { kind: 'always' }, action: { type: 'http_error', status: 529 } }],
      tools: [],
    },
  },
  timeScale: 0.15,
  text: {
    happens: 'Overloaded (529) is about one model’s capacity, not the account. While the big model is saturated, waiting longer on it rarely helps.',
    does: 's11 counts consecutive 529s on a call; after 3 it switches the call to the configured fallback model and keeps going there (a "degrade" rung on the ladder).',
    costs: 'On: three short waits (0.5, 1, 2 s) and the rest of the run on a smaller, cheaper model. Off: all 9 retries wait on the busy model — more than two minutes — and the run still fails.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'after 3 overloads the fallback model finishes the task' },
    off: { reason: 'retries_exhausted', complete: false, says: 'retries the busy model until the budget is gone' },
  },
  diverges: { turn: 1, on: 'fallback' },
};
