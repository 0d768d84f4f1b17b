import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
import { describe, expect, it, vi } from 'vitest';
import { SweepGridSchema } from '@/lib/protocol';
import { expandGrid } from './expand-grid';
import { createLocalPool, listenForPoolErrors } from './local-pool';

describe('the local sweep pool', () => {
  it('fails a job whose worker outgrows its heap limit with a message naming the limit', async () => {
    const [job] = expandGrid(
      SweepGridSchema.parse({ configurations: [{ id: 'cs', preset: 'codesmith' }], seeds: [1] }),
    );
    // The engine alone (its tokenizer's tables) needs more than 8 MB of old generation.
    const pool = createLocalPool({
      workers: 1,
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 4 },
    });
    try {
      await expect(pool.run({ sweepId: 'oom', job: job! })).rejects.toThrow(
        /sweep worker ran out of memory \(its heap is limited to 8 MB old \+ 4 MB young/,
      );
    } finally {
      await pool.close();
    }
  }, 120_000);

  it("drops a cancelled job's late result instead of throwing it, and logs any other pool error", async () => {
    // Piscina reports a result that arrives after destroy() rejected its task as an 'error' event
    // on the pool; with no listener that event is thrown, uncaught, and would end the server.
    const folder = mkdtempSync(path.join(tmpdir(), 'pool-errors-'));
    const filename = path.join(folder, 'worker.mjs');
    writeFileSync(filename, 'export default () => 1;\n');
    const pool = new Piscina({ filename, minThreads: 0 });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    let destroying = false;
    try {
      listenForPoolErrors(pool, () => destroying);
      expect(() => pool.emit('error', new Error('a worker failed between jobs'))).not.toThrow();
      expect(logged).toHaveBeenCalledWith(expect.stringContaining('a worker failed between jobs'));
      logged.mockClear();
      destroying = true;
      expect(() =>
        pool.emit('error', new Error('Unexpected message from Worker: { taskId: 46 }')),
      ).not.toThrow();
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
      await pool.destroy();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
