import { describe, expect, it } from 'vitest';
import { RunConfigSchema } from '@/lib/protocol';
import { getStore } from '@/lib/store';
import { getRunRegistry } from '@/lib/server/get-run-registry';
import { settleLiveRuns, useTempDataDir } from './api-test-env';

useTempDataDir('loop-lab-settle-');

describe('settleLiveRuns', () => {
  it('ends a run a test left going and waits until its terminate is stored, so closing the store after it loses nothing', async () => {
    const registry = getRunRegistry();
    const { id } = await registry.startRun({
      config: RunConfigSchema.parse({ provider: { vendor: 'sim-openai' }, clock: 'real', timeScale: 1 }),
    });
    expect(await registry.isLive(id)).toBe(true);
    await settleLiveRuns();
    expect(await registry.isLive(id)).toBe(false);
    const events = await getStore().readEvents({ runId: id });
    expect(events.at(-1)?.event).toBe('terminate');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  });
});
