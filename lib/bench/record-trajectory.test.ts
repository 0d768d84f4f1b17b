import { describe, expect, it } from 'vitest';
import { SweepGridSchema } from '@/lib/protocol';
import { expandGrid } from '@/lib/sweeps/expand-grid';
import { parseWithSdkAlone, recordTrajectory } from './record-trajectory';

const overloaded = {
  rules: [{ id: 'o', when: { kind: 'requests', numbers: [2] }, action: { type: 'http_error', status: 529 } }],
};

describe('recordTrajectory', () => {
  it('records every exchange the SDK met, the injected 529 included, and the bare SDK parses them all again', async () => {
    const grid = SweepGridSchema.parse({
      configurations: [{ id: 'cs', preset: 'codesmith' }],
      faultPlans: [{ id: 'o', plan: overloaded }],
      seeds: [1],
    });
    const trajectory = await recordTrajectory(expandGrid(grid)[0]!);
    const requests = trajectory.events.filter((e) => e.event === 'model_request');
    expect(trajectory.exchanges).toHaveLength(requests.length);
    expect(trajectory.exchanges.map((x) => x.status)).toContain(529);
    expect(trajectory.events.at(-1)).toMatchObject({ event: 'terminate', complete: true });
    // Each streamed answer is recorded whole: the SDK alone sees its message_stop again.
    const streamed = trajectory.exchanges.filter((x) => x.status === 200);
    const text = (x: (typeof streamed)[number]) => Buffer.concat(x.chunks).toString('utf8');
    expect(streamed.every((x) => text(x).includes('message_stop'))).toBe(true);
    const seen = await parseWithSdkAlone(trajectory);
    const records = streamed.reduce((n, x) => n + (text(x).match(/^event: (?!ping)/gm)?.length ?? 0), 0);
    // One per SSE record (the SDK skips pings) plus one per error response.
    expect(seen).toBe(records + trajectory.exchanges.length - streamed.length);
  });
});
