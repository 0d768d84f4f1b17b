import { it } from 'vitest';
import { runToEnd } from '@/lib/testing/run-to-end';

it('explore', async () => {
  const log = await runToEnd({
    preset: 'codesmith',
    seed: 3,
    recovery: { tools: { delegate: true } },
    faults: JSON.parse(process.env.FAULTS ?? '{"rules":[],"tools":[]}'),
  });
  for (const e of log) {
    if (e.event === 'subagent_event') {
      const i = e.inner as Record<string, unknown>;
      if (['stream_delta', 'watchdog_armed'].includes(String(i.event))) continue;
      console.log(`${e.seq} ${e.ts} [${e.child}.${e.try}] ${i.event} ${JSON.stringify(i).slice(0, 160)}`);
    } else if (!['stream_delta', 'watchdog_armed'].includes(e.event))
      console.log(`${e.seq} ${e.ts} ${e.event} ${JSON.stringify(e).slice(0, 200)}`);
  }
}, 60_000);
