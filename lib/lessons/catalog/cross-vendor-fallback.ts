import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const { fallbackAfter, s11Retries } = DEFAULTS;

export const crossVendorFallback: Lesson = {
  slug: 'cross-vendor-fallback',
  title: 'Fallback onto another vendor',
  mechanism: 'fallback',
  failure: 'Every model of the first vendor is overloaded for the whole run; another vendor is fine.',
  config: {
    provider: { vendor: 'sim-anthropic', model: 'claude-sim-sonnet' },
    preset: 's11',
    seed: 71,
    recovery: { fallback: { vendor: 'sim-openai', model: '' } },
    faults: {
      rules: [
        {
          id: 'busy-vendor',
          label: '529 on claude-sim-sonnet',
          model: 'claude-sim-sonnet',
          when: { kind: 'always' },
          action: { type: 'http_error', status: 529 },
        },
      ],
      tools: [],
    },
  },
  timeScale: 0.1,
  text: {
    happens:
      'An outage can take a whole vendor down, not one model: its smaller sibling on the same account is no way out.',
    does: `The fallback can name another vendor. After ${fallbackAfter} consecutive 529s the run swaps there between two attempts of the same call (a swap event, cause "fallback"): the history is rendered in the new vendor’s wire format, and the call goes on.`,
    costs: `On: ${fallbackAfter} refused requests and waits of 0.6, 1.1 and 2.3 s, then the rest of the run on sim-openai’s gpt-sim-4o, its history in OpenAI’s format. Off: all ${s11Retries} retries wait on the overloaded vendor — 2 min 29 s of waiting — and the run still fails.`,
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: `after ${fallbackAfter} overloads the run moves to sim-openai and finishes`,
    },
    off: {
      reason: 'retries_exhausted',
      complete: false,
      says: `retries the overloaded vendor ${s11Retries} times and fails`,
    },
  },
  criterion: {
    says: 'the work gets done while one vendor is overloaded: the loop finishes, the task is done, no error shown',
    lines: { complete: 'high', verdict: 'high', errorsSeen: 'low' },
  },
  diverges: { turn: 1, on: 'swap' },
};
