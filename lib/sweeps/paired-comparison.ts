import type {
  PairedMetric,
  PairedMetricResult,
  SweepPairedComparison,
  SweepRow,
  SweepRunMetrics,
} from '@/lib/protocol';
import { formatMs } from '@/lib/protocol/format-duration';
import { pairedComparison, type PairedResult } from '@/lib/metrics/paired-stats';

/** A paired metric: how a run reads in it, which way is better, and how a difference is written. */
interface PairedMetricSpec {
  metric: PairedMetric;
  label: string;
  better: 'high' | 'low';
  binary?: true;
  /** What a run spent: compared only on seeds where both loops completed (a run that failed at once is cheap, not better). */
  effort?: true;
  value: (run: SweepRunMetrics) => number;
  diff: (value: number) => string;
}

const signed = (value: number, body: (abs: number) => string): string =>
  `${value < 0 ? '−' : '+'}${body(Math.abs(value))}`;

const PAIRED_METRICS: readonly PairedMetricSpec[] = [
  {
    metric: 'done',
    label: 'task done',
    better: 'high',
    binary: true,
    value: (r) => (r.verdict === 'done' ? 1 : 0),
    diff: (v) => signed(v * 100, (a) => `${a.toFixed(1)} pts`),
  },
  {
    metric: 'usd',
    label: '$/run',
    better: 'low',
    effort: true,
    value: (r) => r.usd,
    diff: (v) => signed(v, (a) => `$${a.toFixed(4)}`),
  },
  {
    metric: 'tokens',
    label: 'tokens/run',
    better: 'low',
    effort: true,
    value: (r) => r.input_tokens + r.output_tokens,
    diff: (v) => signed(v, (a) => Math.round(a).toLocaleString('en')),
  },
  {
    metric: 'duration_ms',
    label: 'run time',
    better: 'low',
    effort: true,
    value: (r) => r.duration_ms,
    diff: (v) => signed(v, (a) => formatMs(a)),
  },
];

/** A p-value as a line prints it. */
export function formatP(p: number): string {
  if (p < 0.0001) return '< 0.0001';
  if (p >= 1) return '= 1';
  return `= ${Number(p.toPrecision(2))}`;
}

/** FNV-1a of the pair and metric: the bootstrap's seed, so the same runs give the same interval. */
function seedOf(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The finding in words: which side the test found better and on what evidence, or why none. */
function findingLine(spec: PairedMetricSpec, r: PairedResult, a: string, b: string): string {
  const differ = r.aBetter + r.bBetter;
  const interval = `A − B ${spec.diff(r.meanDiff)} (95 % CI ${spec.diff(r.ci[0])} to ${spec.diff(r.ci[1])})`;
  if (r.better) {
    const [winner, wins] = r.better === 'a' ? [a, r.aBetter] : [b, r.bBetter];
    return `${winner} better on ${spec.label}: ${differ} of ${r.n} seeds differ, ${wins} favour ${winner}; ${r.test} p ${formatP(r.p)}; ${interval}`;
  }
  const none = `no detectable difference at this sample size on ${spec.label}`;
  if (differ === 0) return `${none}: no seed of ${r.n} differs`;
  const split = `${differ} of ${r.n} seeds differ (${r.aBetter} favour ${a}, ${r.bBetter} favour ${b}); ${r.test} p ${formatP(r.p)}; ${interval}`;
  if (r.seedsNeeded === null) return `${none}: ${split}; they split evenly, so no number of seeds follows`;
  return `${none}: ${split}; about ${r.seedsNeeded.toLocaleString('en')} seeds would be needed to detect a difference this size`;
}

/** The other axes two rows must share to be compared: everything but the configuration. */
function contextOf(row: SweepRow): string {
  return [row.scenario, row.fault_plan, row.vendor, row.model, row.prompt_set]
    .filter((v) => v !== undefined)
    .join(' · ');
}

/**
 * Pairs the runs of two rows by seed: each seed's runs in job order, matched one to one (a seed
 * listed twice in the grid pairs its first runs, then its second).
 */
function pairBySeed(
  aRuns: readonly SweepRunMetrics[],
  bRuns: readonly SweepRunMetrics[],
): Array<[SweepRunMetrics, SweepRunMetrics]> {
  const bySeed = new Map<number, SweepRunMetrics[]>();
  for (const run of bRuns) {
    const list = bySeed.get(run.seed);
    if (list) list.push(run);
    else bySeed.set(run.seed, [run]);
  }
  const pairs: Array<[SweepRunMetrics, SweepRunMetrics]> = [];
  for (const run of aRuns) {
    const other = bySeed.get(run.seed)?.shift();
    if (other) pairs.push([run, other]);
  }
  return pairs;
}

/** One metric of one pair of rows. */
function compareMetric(
  spec: PairedMetricSpec,
  pairs: ReadonlyArray<[SweepRunMetrics, SweepRunMetrics]>,
  a: SweepRow,
  b: SweepRow,
): PairedMetricResult {
  const used = spec.effort ? pairs.filter(([x, y]) => x.complete && y.complete) : pairs;
  const base = { metric: spec.metric, label: spec.label };
  if (used.length === 0) {
    return {
      ...base,
      test: spec.binary ? 'exact McNemar' : 'exact sign test',
      n: 0,
      a_better: 0,
      b_better: 0,
      ties: 0,
      p: 1,
      mean_diff: 0,
      ci: [0, 0],
      better: null,
      seeds_needed: null,
      line: `${spec.label} not compared: no seed where both loops completed (what a failed run spent is not what the work costs)`,
    };
  }
  const result = pairedComparison({
    a: used.map(([x]) => spec.value(x)),
    b: used.map(([, y]) => spec.value(y)),
    better: spec.better,
    ...(spec.binary ? { binary: true } : {}),
    seed: seedOf(`${a.key}\n${b.key}\n${spec.metric}`),
  });
  return {
    ...base,
    test: result.test,
    n: result.n,
    a_better: result.aBetter,
    b_better: result.bBetter,
    ties: result.ties,
    p: result.p,
    mean_diff: result.meanDiff,
    ci: result.ci,
    better: result.better,
    seeds_needed: result.seedsNeeded,
    line: findingLine(spec, result, a.config_label, b.config_label),
  };
}

/**
 * The paired comparisons of a sweep: every two rows that differ only by configuration (same
 * scenario, fault plan, target, model and prompt set) and share at least one seed, in table
 * order, each tested seed by seed on task done (exact McNemar), cost, tokens and run time
 * (exact sign test; only seeds where both loops completed). Depends only on the runs, never
 * on the order they finished in.
 */
export function pairedComparisons({
  rows,
  metrics,
}: {
  rows: readonly SweepRow[];
  metrics: readonly SweepRunMetrics[];
}): SweepPairedComparison[] {
  const byKey = new Map<string, SweepRunMetrics[]>();
  for (const m of metrics) {
    const list = byKey.get(m.key);
    if (list) list.push(m);
    else byKey.set(m.key, [m]);
  }
  for (const list of byKey.values()) list.sort((x, y) => x.job - y.job);
  const out: SweepPairedComparison[] = [];
  rows.forEach((a, i) => {
    for (const b of rows.slice(i + 1)) {
      if (a.config === b.config || contextOf(a) !== contextOf(b)) continue;
      const pairs = pairBySeed(byKey.get(a.key) ?? [], byKey.get(b.key) ?? []);
      if (pairs.length === 0) continue;
      out.push({
        a: a.key,
        b: b.key,
        a_label: a.config_label,
        b_label: b.config_label,
        context: contextOf(a),
        seeds: pairs.length,
        metrics: PAIRED_METRICS.map((spec) => compareMetric(spec, pairs, a, b)),
      });
    }
  });
  return out;
}

/** The comparisons as terminal lines: each pair, then one line a metric (▲ on the side the test found better). */
export function formatComparisons(comparisons: readonly SweepPairedComparison[]): string {
  return comparisons
    .map((c) => {
      const mark = (m: PairedMetricResult): string =>
        m.better ? `▲ ${m.better === 'a' ? c.a_label : c.b_label}` : '·';
      const width = Math.max(...c.metrics.map((m) => mark(m).length));
      return [
        `${c.a_label} (A) vs ${c.b_label} (B) · ${c.context} · ${c.seeds} shared seeds`,
        ...c.metrics.map((m) => `  ${mark(m).padEnd(width)}  ${m.line}`),
      ].join('\n');
    })
    .join('\n');
}
