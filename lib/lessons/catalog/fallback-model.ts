import type { Lesson } from '../lesson';
import { DEFAULTS } from '@/lib/mechanisms/defaults';

const { fallbackAfter, s11Retries, s11BackoffBase, s11BackoffCap, s11Jitter } = DEFAULTS;

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
      rules: [
        {
          id: 'busy-model',
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
      'Overloaded (529) is about one model’s capacity, not the account. While the big model is saturated, waiting longer on it rarely helps.',
    does: `s11 counts consecutive 529s on a call; after ${fallbackAfter} it switches the call to the configured fallback model and keeps going there (a "degrade" rung on the ladder).`,
    costs: `On: ${fallbackAfter} refused requests and waits of 0.6, 1.1 and 2.2 s (${s11BackoffBase} doubling, ${s11Jitter} jitter), then the rest of the run on a smaller, cheaper model. Off: all ${s11Retries} retries wait on the busy model (the doubling stops at ${s11BackoffCap}, jitter comes on top) — 2 min 19 s of waiting — and the run still fails.`,
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: `after ${fallbackAfter} overloads the fallback model finishes the task`,
    },
    off: {
      reason: 'retries_exhausted',
      complete: false,
      says: 'retries the busy model until the budget is gone',
    },
  },
  criterion: {
    says: 'the work gets done while the main model is overloaded: the loop finishes, the task is done, no error shown',
    lines: { complete: 'high', verdict: 'high', errorsSeen: 'low' },
  },
  diverges: { turn: 1, on: 'fallback' },
};
