import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunConfigSchema } from '@/lib/protocol';
async function main() {
  process.env.LOOP_LAB_DATA_DIR = mkdtempSync(join(tmpdir(), 'loop-lab-bench-'));
  const { getRunRegistry } = await import('@/lib/server');
  const registry = getRunRegistry();
  const config = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' }, scenario: 'long-project', clock: 'virtual' });
  for (let k = 0; k < 3; k++) {
  const { id } = registry.startRun({ config });
  const t0 = performance.now(); const marks: [number, string][] = [];
  registry.subscribe({ runId: id, listener: { onEvent: (e: any) => { const d = e.event + (e.tool ? ':' + e.tool : '') + (e.event==='tool_result'||e.event==='tool_call' ? ':' + (e.name ?? e.call?.name ?? '') : ''); marks.push([performance.now() - t0, d]); }, onEnd: () => {} } });
  await registry.whenFinished(id);
  let prev = 0; const gaps: [number, string][] = [];
  for (const [t, d] of marks) { gaps.push([t - prev, d]); prev = t; }
  console.log('total', prev.toFixed(0), 'events', marks.length, 'biggest gaps:', gaps.sort((a, b) => b[0] - a[0]).slice(0, 8).map(([g, d]) => `${g.toFixed(0)}ms→${d}`).join(', '));
  }
  process.exit(0);
}
void main();
