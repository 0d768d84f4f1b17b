import { describe, expect, it } from 'vitest';
import { SweepGridSchema, type EventOf, type RunEvent } from '@/lib/protocol';
import { visibleColumns } from '@/lib/client/tables/sweep-columns';
import { expandGrid } from './expand-grid';
import { formatTable } from './format-table';
import { resultsTable } from './results-table';
import { runSweepJob } from './run-sweep-job';

describe("a sweep counts its runs' sub-agents apart from the runs' own cost and tokens", () => {
  it('carries the children’s share on each run’s metrics, the row and both tables, beside the run’s own', async () => {
    const grid = SweepGridSchema.parse({
      configurations: [
        { id: 'delegating', preset: 'codesmith', recovery: { tools: { delegate: true } } },
        { id: 'alone', preset: 'codesmith' },
      ],
      seeds: [1, 2],
    });
    const cells = expandGrid(grid);
    const ran = [];
    for (const job of cells) ran.push(await runSweepJob({ sweepId: 'subagent-share', job }));

    for (const { log, metrics } of ran) {
      const events = log.bodies.map((json) => JSON.parse(json) as RunEvent);
      const ends = events.filter((e): e is EventOf<'subagent_end'> => e.event === 'subagent_end');
      const end = events.at(-1) as EventOf<'terminate'>;
      // The run's own figures stay the run's own calls.
      expect(metrics.usd).toBe(end.usd_so_far);
      expect(metrics.input_tokens).toBe(end.input_tokens);
      if (metrics.key.includes('alone')) {
        expect(ends).toEqual([]);
        expect(metrics).not.toHaveProperty('subagent_usd');
        continue;
      }
      expect(ends.length).toBeGreaterThanOrEqual(3);
      expect(metrics.subagent_usd).toBeGreaterThan(0);
      expect(metrics.subagent_usd).toBeCloseTo(
        ends.reduce((s, e) => s + e.usd, 0),
        12,
      );
      expect(metrics.subagent_input_tokens).toBe(ends.reduce((s, e) => s + e.input_tokens, 0));
      expect(metrics.subagent_output_tokens).toBe(ends.reduce((s, e) => s + e.output_tokens, 0));
    }

    const rows = resultsTable({ cells, metrics: ran.map((r) => r.metrics) });
    const delegating = rows.find((r) => r.config === 'delegating')!;
    const alone = rows.find((r) => r.config === 'alone')!;
    const mine = ran.filter((r) => r.metrics.key === delegating.key).map((r) => r.metrics);
    expect(mine).toHaveLength(2);
    expect(delegating.mean_subagent_usd).toBeCloseTo(
      (mine[0]!.subagent_usd! + mine[1]!.subagent_usd!) / 2,
      12,
    );
    expect(delegating.mean_subagent_tokens).toBe(
      mine.reduce((s, m) => s + m.subagent_input_tokens! + m.subagent_output_tokens!, 0) / 2,
    );
    expect(delegating.mean_usd).toBeCloseTo((mine[0]!.usd + mine[1]!.usd) / 2, 12);
    expect(alone).not.toHaveProperty('mean_subagent_usd');

    // The printed table has the two columns beside $/run; a row without sub-agents shows a dash.
    const text = formatTable(rows).split('\n');
    const headers = text[0]!.split(/\s{2,}/);
    expect(headers.slice(headers.indexOf('$/run'), headers.indexOf('$/run') + 3)).toEqual([
      '$/run',
      'sub-agents tok/run',
      'sub-agents $/run',
    ]);
    const line = (config: string) =>
      text.find((l) => l.startsWith(rows.find((r) => r.config === config)!.config_label))!;
    expect(line('delegating')).toContain(`$${delegating.mean_subagent_usd!.toFixed(4)}`);
    expect(
      line('alone')
        .split(/\s{2,}/)
        .filter((c) => c === '—'),
    ).toHaveLength(2);
    expect(formatTable([alone])).not.toContain('sub-agents');

    // The page's table shows them when some row has them.
    const ids = visibleColumns(rows).map((c) => c.id);
    expect(ids.slice(ids.indexOf('mean_usd'), ids.indexOf('mean_usd') + 3)).toEqual([
      'mean_usd',
      'mean_subagent_tokens',
      'mean_subagent_usd',
    ]);
    expect(visibleColumns([alone]).map((c) => c.id)).not.toContain('mean_subagent_usd');
  }, 120_000);
});
