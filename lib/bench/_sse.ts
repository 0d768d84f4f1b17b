import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunConfigSchema } from '@/lib/protocol';
async function main() {
  process.env.LOOP_LAB_DATA_DIR = mkdtempSync(join(tmpdir(), 'loop-lab-bench-'));
  const { getRunRegistry } = await import('@/lib/server');
  const route = await import('@/app/api/runs/[id]/events/route');
  const registry = getRunRegistry();
  const config = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, scenario: 'long-project', clock: 'virtual' });
  const read = async (id: string) => { const r = await route.GET(new Request(`http://b/api/runs/${id}/events`), { params: Promise.resolve({ id }) }); const t = await r.text(); return t.split('\n\n').filter((f) => f.startsWith('id: ')).length; };
  for (let i = 0; i < Number(process.env.N ?? 5); i++) {
    let t0 = performance.now(); let c0 = process.cpuUsage();
    const { id } = registry.startRun({ config });
    const n = await read(id);
    const live = performance.now() - t0; const lc = process.cpuUsage(c0);
    t0 = performance.now();
    const { id: id2 } = registry.startRun({ config });
    await registry.whenFinished(id2);
    const bare = performance.now() - t0;
    console.log('events', n, 'live via route ms', live.toFixed(0), 'cpu', ((lc.user + lc.system) / 1000).toFixed(0), 'run without subscriber ms', bare.toFixed(0));
  }
  process.exit(0);
}
void main();
