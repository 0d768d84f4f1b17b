import type { Lesson } from '../lesson';

export const promptCaching: Lesson = {
  slug: 'prompt-caching',
  title: 'Prompt caching',
  mechanism: 'prompt-caching',
  failure:
    'The task reads long runbooks, one per turn, and every request sends the whole conversation again — tools, system prompt, every runbook so far — at full price.',
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
    preset: 'codesmith',
    scenario: 'growing-context',
    seed: 7,
  },
  timeScale: 1,
  text: {
    happens:
      'An agent loop re-sends its history with every call: turn ten pays again for the tools, the system prompt and the nine turns before it, although nothing in them changed.',
    does: 'The stable prefix — the tool list, the system prompt, the settled history and the newest message — carries cache_control breakpoints. The vendor writes a marked prefix once (at 1.25× the input price, if at least 1,024 tokens long for Sonnet) and for five minutes after each use reads it back at a tenth of the price. Each llm_call records what the vendor reported read and written; the context gauge shows the cached part of each request.',
    costs:
      "On: the first 3 requests are under the 1,024-token minimum and are not cached; from then on each reads the previous prefix back — at turn 15, 14,989 of the request's 16,258 tokens — 89 % of all input tokens in the run. The run costs under a quarter of what it costs off. Off: the same turns, the same tokens, all at full price. A step that changes an early message (a stub, a summary) ends the cached prefix there: its compaction event says after which message.",
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: 'the stable prefix is read from the cache' },
    off: { reason: 'end_turn', complete: true, says: 'the same work at full input price' },
  },
  criterion: {
    says: 'the same task for less: the input the vendor reads from its cache costs a tenth',
    lines: { usd: 'low' },
  },
  diverges: { turn: 4, on: 'llm_call' },
};
