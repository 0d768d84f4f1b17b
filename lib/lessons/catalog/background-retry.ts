import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const RETRY_AFTER_S = 2;

export const backgroundRetry: Lesson = {
  slug: 'background-retry',
  title: 'The background retry account',
  mechanism: 'background-retry',
  failure: `The auxiliary call that titles the run is rate-limited once (429, retry after ${RETRY_AFTER_S} s).`,
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 19,
    faults: {
      rules: [
        {
          id: 'title-429',
          label: '429 on the title call',
          target: 'background',
          when: { kind: 'next', count: 1 },
          action: { type: 'http_error', status: 429, retryAfterSec: RETRY_AFTER_S },
        },
      ],
      tools: [],
    },
  },
  timeScale: 0.5,
  text: {
    happens:
      'Besides its own turns, a loop makes auxiliary calls — a title, a summary for compaction. They fail like any request.',
    does: `Auxiliary calls retry on their own account (CodeSmith: ${DEFAULTS.backgroundRetries} retries) and only for network, rate-limit and timeout errors, so they neither give up at the first hiccup nor spend the turn’s retry budget.`,
    costs: `On: a ${RETRY_AFTER_S} s wait and one more small request; the run gets its title. Off: the title is skipped at the first 429 (a log line says so). The task is done either way — which is the point of keeping the accounts apart.`,
  },
  expect: {
    on: { reason: 'end_turn', complete: true, says: `the title call waits ${RETRY_AFTER_S} s and succeeds` },
    off: { reason: 'end_turn', complete: true, says: 'the title is skipped at the first 429' },
  },
  criterion: {
    says: 'the auxiliary call gets its answer (the run its title) without touching the turn’s own retries',
    lines: { titled: 'high' },
  },
  diverges: { turn: 9, on: 'retry_scheduled' },
};
