import type { Lesson } from '../lesson';

export const takeoverCredentials: Lesson = {
  slug: 'takeover-credentials',
  title: 'Takeover: foreign credentials dropped',
  mechanism: 'takeover-handling',
  failure:
    'At turn 3 the run moves from claude-sim-sonnet to claude-sim-haiku, with thinking blocks signed by the first model in its history.',
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
    preset: 'codesmith',
    seed: 67,
    swaps: [{ atTurn: 3, vendor: 'sim-anthropic', model: 'claude-sim-haiku' }],
  },
  timeScale: 1,
  text: {
    happens:
      'Thinking blocks carry a signature only the model (and vendor) that wrote them can verify. Another model receiving them rejects the whole request with a 400.',
    does: 'The history is kept in no vendor’s format. On a switch, credentials travel only back to the model that minted them; for anyone else they are dropped (and the thinking text dropped or kept as a marked note). The takeover report lists what was converted and dropped, with the naive 400 one click away.',
    costs:
      'On: the new model loses the old one’s signed thinking, and carries on. Off (naive: history as it was): the strict vendor’s real 400 "Invalid signature", refused 4 times — CodeSmith’s exclusion rule retries even a 400 within its budget of 3, after 7.0 s of backoff — ends the run at the switch.',
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: 'signatures dropped at the switch; the new model finishes',
    },
    off: {
      reason: 'retries_exhausted',
      complete: false,
      says: 'the new model rejects the foreign signatures with a 400, and every resend of them',
    },
  },
  criterion: {
    says: 'the run survives the switch of model: the loop finishes, the task is done, no error shown',
    lines: { complete: 'high', verdict: 'high', errorsSeen: 'low' },
  },
  diverges: { turn: 3, on: 'llm_call' },
};
