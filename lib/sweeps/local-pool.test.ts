import { describe, expect, it } from 'vitest';
import { SweepGridSchema } from '@/lib/protocol';
import { expandGrid } from './expand-grid';
import { createLocalPool } from './local-pool';

describe('the local sweep pool', () => {
  it('fails a job whose worker outgrows its heap limit with a message naming the limit', async () => {
    const [job] = expandGrid(SweepGridSchema.parse({ configurations: [{ id: 'cs', preset: 'codesmith' }], seeds: [1] }));
    // The engine alone (its tokenizer's tables) needs more than 8 MB of old generation.
    const pool = createLocalPool({ workers: 1, resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 4 } });
    try {
      await expect(pool.run({ sweepId: 'oom', job: job! })).rejects.toThrow(/sweep worker ran out of memory \(its heap is limited to 8 MB old \+ 4 MB young/);
    } finally {
      await pool.close();
    }
  }, 120_000);
});
