import type { Lesson } from '../lesson';

export const forkOntoResponses: Lesson = {
  slug: 'fork-onto-responses',
  title: 'Fork onto another vendor: the Responses API',
  mechanism: 'takeover-handling',
  failure:
    'A finished run on claude-sim-sonnet is forked at turn 2 onto OpenAI’s Responses API: the copied turns carry thinking signed by Anthropic’s model.',
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
    preset: 'codesmith',
    seed: 79,
  },
  fork: { atTurn: 2, vendor: 'sim-openai-responses', model: 'gpt-sim-5' },
  timeScale: 1,
  text: {
    happens:
      'A fork replays a stored run’s first turns and goes on live from there, here on another vendor. Those turns hold Anthropic thinking with its signature; the Responses API has a place for sealed reasoning (a reasoning item’s encrypted_content), and accepts only what its own model sealed.',
    does: 'The lesson first makes its parent run and stores it; both sides fork it at turn 2. With takeover handling on, the fork is a takeover like any swap: the signed thinking is dropped, the history goes by value (no stored response holds it, so there is no previous_response_id to send), and the takeover report lists what was converted and dropped.',
    costs:
      'On: 2 signed thinking blocks dropped and 5 messages sent by value; gpt-sim-5 goes on from turn 3 and finishes the task in 7 turns. Off (naive: history as it was): the 2 signatures go as encrypted reasoning items, and the vendor’s 400 invalid_encrypted_content ("The encrypted content … could not be verified.") answers its first request and the 3 resends CodeSmith’s exclusion rule makes of it (7.3 s of backoff); the fork ends at its first turn.',
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: 'signatures dropped at the fork; gpt-sim-5 finishes the task',
    },
    off: {
      reason: 'retries_exhausted',
      complete: false,
      says: 'the Responses API rejects the foreign signature as encrypted content, on every resend',
    },
  },
  criterion: {
    says: 'the fork survives the move to another vendor: the loop finishes, the task is done, no error shown',
    lines: { complete: 'high', verdict: 'high', errorsSeen: 'low' },
  },
  diverges: { turn: 3, on: 'llm_call' },
};
