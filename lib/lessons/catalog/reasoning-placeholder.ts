import type { Lesson } from '../lesson';

export const reasoningPlaceholder: Lesson = {
  slug: 'reasoning-placeholder',
  title: 'Takeover onto DeepSeek: the reasoning placeholder',
  mechanism: 'takeover-handling',
  failure:
    'At turn 3 the run moves from claude-sim-sonnet to deepseek-sim-reasoner, whose history has tool-call turns with no reasoning of its own.',
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
    preset: 'codesmith',
    seed: 73,
    swaps: [{ atTurn: 3, vendor: 'sim-deepseek', model: 'deepseek-sim-reasoner' }],
  },
  timeScale: 1,
  text: {
    happens:
      'A DeepSeek-style reasoner in thinking mode wants every assistant turn with tool calls sent back with its reasoning_content, even an empty one; a tool-call turn without it is a 400. The turns another vendor’s model wrote have no reasoning this vendor can take: Anthropic’s thinking is signed for Anthropic.',
    does: 'On the switch the foreign thinking is dropped, and each earlier tool-call turn is given a placeholder reasoning_content, "(reasoning omitted)" — the rule is met without passing another model’s thinking off as this one’s. The takeover report counts the turns given it.',
    costs:
      'On: 2 tool-call turns get the placeholder, and deepseek-sim-reasoner finishes the task. Off (naive: history as it was): the same turns go without reasoning_content, and the vendor’s 400 "The reasoning_content in the thinking mode must be passed back to the API.", refused 4 times — CodeSmith’s exclusion rule retries even a 400 within its budget of 3, after 7.1 s of backoff — ends the run at the switch.',
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'the placeholder is sent; the reasoner finishes' },
    off: {
      reason: 'retries_exhausted',
      complete: false,
      says: 'the reasoner rejects the turns without reasoning_content, and every resend of them',
    },
  },
  criterion: {
    says: 'the run survives the switch of vendor: the loop finishes, the task is done, no error shown',
    lines: { complete: 'high', verdict: 'high', errorsSeen: 'low' },
  },
  diverges: { turn: 3, on: 'llm_call' },
};
