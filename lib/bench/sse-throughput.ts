import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunConfigSchema } from '@/lib/protocol';

/**
 * Events per second through the real SSE route handler (GET /api/runs/:id/events): once
 * while a run is live on the virtual clock, and as replays of the finished run.
 */
export async function measureSseThroughput(options: { replays: number }): Promise<{ events: number; liveEventsPerSec: number; replayEventsPerSec: number }> {
  process.env.LOOP_LAB_DATA_DIR = mkdtempSync(join(tmpdir(), 'loop-lab-bench-'));
  const { getRunRegistry } = await import('@/lib/server');
  const route = await import('@/app/api/runs/[id]/events/route');
  const registry = getRunRegistry();
  const config = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, scenario: 'long-project', clock: 'virtual' });

  const read = async (id: string): Promise<number> => {
    const response = await route.GET(new Request(`http://bench.local/api/runs/${id}/events`), { params: Promise.resolve({ id }) });
    const text = await response.text();
    return text.split('\n\n').filter((frame) => frame.startsWith('id: ')).length;
  };

  const { id } = registry.startRun({ config });
  let started = performance.now();
  const events = await read(id);
  const liveMs = performance.now() - started;
  if (events === 0) throw new Error('the SSE route sent no events');

  started = performance.now();
  let total = 0;
  for (let i = 0; i < options.replays; i++) total += await read(id);
  const replayMs = performance.now() - started;
  return { events, liveEventsPerSec: (events / liveMs) * 1000, replayEventsPerSec: (total / replayMs) * 1000 };
}
