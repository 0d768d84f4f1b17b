import type { SweepGridInput } from '@/lib/protocol';

/** 2 configurations × 2 fault plans × 5 seeds: the small sweep. */
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
