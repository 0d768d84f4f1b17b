import type { SweepGridInput } from '@/lib/protocol';

/** 2 configurations × 2 fault plans × 5 seeds: the small sweep the sweep tests share. */
export const SMALL_GRID: SweepGridInput = {
  name: 'small',
  configurations: [
    { id: 'codesmith', preset: 'codesmith' },
    { id: 'naive', preset: 'naive' },
  ],
  faultPlans: [
    { id: 'none' },
    {
      id: 'overloaded-x2',
      plan: {
        rules: [
          {
            id: 'o',
            when: { kind: 'requests', numbers: [2, 3] },
            action: { type: 'http_error', status: 529 },
          },
        ],
      },
    },
  ],
  seeds: { from: 1, to: 5 },
};

/**
 * codesmith and naive, each answered 529 on its second request: naive gives up where codesmith
 * retries, so naive's runs end on an error and a re-run has something to do. Each test gives it
 * its own name and seeds.
 */
export const OUTAGE_GRID = {
  configurations: [
    { id: 'codesmith', preset: 'codesmith' },
    { id: 'naive', preset: 'naive' },
  ],
  faultPlans: [
    {
      id: 'overloaded',
      plan: {
        rules: [
          { id: 'o', when: { kind: 'requests', numbers: [2] }, action: { type: 'http_error', status: 529 } },
        ],
      },
    },
  ],
} satisfies Pick<SweepGridInput, 'configurations' | 'faultPlans'>;
