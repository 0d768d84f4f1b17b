'use client';

import { useMemo } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ErrorBar,
  Legend,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatMs, formatUsd } from '@/lib/run-view/format';
import { seriesColour, seriesShape } from '@/lib/client/marks/mark-palette';
import { rowLabel } from '@/lib/client/tables/sweep-columns';
import type { SweepRow, SweepRunMetrics } from '@/lib/protocol';
import { BandTick } from './band-tick';

/**
 * One colour and one shape per row, the same in every chart (lib/client/marks/mark-palette.ts). Dots are
 * filled translucent, so overlapping runs show as denser colour, and outlined in the solid
 * series colour, which is what reads at 3:1 against the panel.
 */
function seriesProps(i: number) {
  return {
    fill: seriesColour(i),
    stroke: seriesColour(i),
    strokeWidth: 1.5,
    fillOpacity: 0.45,
    shape: seriesShape(i),
    legendType: seriesShape(i),
  } as const;
}
const AXIS = { fontSize: 10, fill: 'var(--c-muted)' };
const GRID = 'var(--c-line)';

interface Point {
  x: number;
  y: number;
  run: string;
  seed: number;
}

/** A fixed spread in [-0.3, 0.3] from the job number, so points of a strip do not overlap and never move. */
function jitter(job: number): number {
  return (((job * 2654435761) % 1000) / 1000 - 0.5) * 0.6;
}

function Strip({
  title,
  rows,
  runs,
  pick,
  format,
  testId,
}: {
  title: string;
  rows: SweepRow[];
  runs: Map<string, SweepRunMetrics[]>;
  pick: (r: SweepRunMetrics) => number;
  format: (v: number) => string;
  testId: string;
}) {
  const labels = rows.map((r) => rowLabel(r, rows));
  return (
    <figure className="rounded border border-line bg-panel p-2" data-testid={testId}>
      <figcaption className="mb-1 text-2xs font-medium text-muted">{title}</figcaption>
      <ResponsiveContainer width="100%" height={220}>
        <ScatterChart margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
          <XAxis
            type="number"
            dataKey="x"
            domain={[-0.5, rows.length - 0.5]}
            ticks={rows.map((_, i) => i)}
            tickFormatter={(i: number) => labels[i] ?? ''}
            tick={<BandTick />}
            height={34}
            interval={0}
          />
          <YAxis type="number" dataKey="y" tickFormatter={format} tick={AXIS} width={64} />
          <Tooltip
            cursor={false}
            formatter={(value, name) => (name === 'y' ? format(Number(value)) : String(value))}
            labelFormatter={() => ''}
          />
          {rows.map((row, i) => {
            const points: Point[] = (runs.get(row.key) ?? []).map((m) => ({
              x: i + jitter(m.job),
              y: pick(m),
              run: m.run_id,
              seed: m.seed,
            }));
            return (
              <Scatter
                key={row.key}
                name={labels[i]}
                data={points}
                {...seriesProps(i)}
                isAnimationActive={false}
              />
            );
          })}
        </ScatterChart>
      </ResponsiveContainer>
    </figure>
  );
}

/**
 * The sweep's charts: run time and cost per run for each row (strip plots, one dot a run),
 * completion rate with its 95 % interval, and cost against run time for every run.
 */
export function SweepCharts({ rows, runs }: { rows: SweepRow[]; runs: SweepRunMetrics[] }) {
  const byKey = useMemo(() => {
    const map = new Map<string, SweepRunMetrics[]>();
    for (const m of runs) map.set(m.key, [...(map.get(m.key) ?? []), m]);
    return map;
  }, [runs]);
  const labels = rows.map((r) => rowLabel(r, rows));
  const completion = rows.map((r, i) => ({
    name: labels[i],
    rate: r.completion_rate * 100,
    ci: [(r.completion_rate - r.completion_ci[0]) * 100, (r.completion_ci[1] - r.completion_rate) * 100],
    // Written under every bar: a rate of 0 % has no bar to see, and its interval is the point.
    label: `${Math.round(r.completion_rate * 100)} % (${Math.round(r.completion_ci[0] * 100)}–${Math.round(r.completion_ci[1] * 100)})`,
  }));

  return (
    <div className="grid grid-cols-1 gap-3 xl:grid-cols-2" data-testid="sweep-charts">
      <Strip
        title="Run time per run (run clock)"
        rows={rows}
        runs={byKey}
        pick={(m) => m.duration_ms}
        format={(v) => formatMs(v)}
        testId="chart-run-time"
      />
      <Strip
        title="Cost per run"
        rows={rows}
        runs={byKey}
        pick={(m) => m.usd}
        format={(v) => formatUsd(v)}
        testId="chart-cost"
      />
      <figure className="rounded border border-line bg-panel p-2" data-testid="chart-completion">
        <figcaption className="mb-1 text-2xs font-medium text-muted">
          Loop completion rate, with its 95 % Wilson interval
        </figcaption>
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={completion} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
            <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
            <XAxis
              dataKey="name"
              tick={<BandTick captions={completion.map((c) => c.label)} />}
              height={48}
              interval={0}
            />
            <YAxis domain={[0, 100]} tickFormatter={(v: number) => `${v} %`} tick={AXIS} width={48} />
            <Tooltip
              formatter={(value, _name, item) =>
                (item.payload as { label?: string } | undefined)?.label ?? `${Number(value).toFixed(0)} %`
              }
            />
            <Bar
              dataKey="rate"
              fill="var(--c-ok)"
              fillOpacity={0.35}
              stroke="var(--c-ok)"
              strokeWidth={1.5}
              isAnimationActive={false}
              minPointSize={2}
            >
              <ErrorBar dataKey="ci" width={6} stroke="var(--c-fg)" />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </figure>
      <figure className="rounded border border-line bg-panel p-2" data-testid="chart-scatter">
        <figcaption className="mb-1 text-2xs font-medium text-muted">
          Cost against run time, one dot a run
        </figcaption>
        <ResponsiveContainer width="100%" height={220}>
          <ScatterChart margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
            <CartesianGrid stroke={GRID} strokeDasharray="3 3" />
            <XAxis
              type="number"
              dataKey="x"
              name="run time"
              tickFormatter={(v: number) => formatMs(v)}
              tick={AXIS}
            />
            <YAxis
              type="number"
              dataKey="y"
              name="cost"
              tickFormatter={(v: number) => formatUsd(v)}
              tick={AXIS}
              width={64}
            />
            <Tooltip
              formatter={(value, name) =>
                name === 'cost' ? formatUsd(Number(value)) : formatMs(Number(value))
              }
            />
            <Legend wrapperStyle={{ fontSize: 10 }} />
            {rows.map((row, i) => (
              <Scatter
                key={row.key}
                name={labels[i]}
                data={(byKey.get(row.key) ?? []).map((m) => ({ x: m.duration_ms, y: m.usd }))}
                {...seriesProps(i)}
                isAnimationActive={false}
              />
            ))}
          </ScatterChart>
        </ResponsiveContainer>
      </figure>
    </div>
  );
}
