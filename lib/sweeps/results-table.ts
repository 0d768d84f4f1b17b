import type { SweepRow, SweepRunMetrics } from '@/lib/protocol';
import type { SweepCell } from './expand-grid';

/**
 * The results table: one row per cell (configuration × scenario × fault plan × target, × model
 * and × prompt set when the grid has those axes), in
 * the order the grid lists them, from the runs finished so far. Rows depend only on the
 * metrics, never on the order runs finished in, so the same grid gives the same table.
 */
export function resultsTable({
  cells,
  metrics,
}: {
  cells: readonly SweepCell[];
  metrics: readonly SweepRunMetrics[];
}): SweepRow[] {
  const byKey = new Map<string, SweepRunMetrics[]>();
  for (const m of metrics) {
    const list = byKey.get(m.key);
    if (list) list.push(m);
    else byKey.set(m.key, [m]);
  }
  const rows: SweepRow[] = [];
  for (const job of cells) {
    // Sorted by job so sums add up in one order whatever order the runs finished in.
    const runs = (byKey.get(job.key) ?? []).slice().sort((a, b) => a.job - b.job);
    const n = runs.length;
    const completed = runs.filter((r) => r.complete).length;
    const done = runs.filter((r) => r.verdict === 'done').length;
    const times = runs.map((r) => r.duration_ms).sort((a, b) => a - b);
    const mean = (pick: (r: SweepRunMetrics) => number): number =>
      n === 0 ? 0 : runs.reduce((s, r) => s + pick(r), 0) / n;
    rows.push({
      key: job.key,
      config: job.configId,
      config_label: job.configLabel,
      scenario: job.scenario,
      fault_plan: job.faultPlan,
      vendor: job.vendor,
      ...(job.model !== undefined ? { model: job.model } : {}),
      ...(job.promptSet !== undefined ? { prompt_set: job.promptSet } : {}),
      runs: n,
      completed,
      completion_rate: n === 0 ? 0 : completed / n,
      completion_ci: wilsonInterval(completed, n),
      verdict_rate: n === 0 ? 0 : done / n,
      verdict_ci: wilsonInterval(done, n),
      // A log without a task_verdict (stored before verdicts, or stopped outside the loop) is unchecked too.
      unchecked: runs.filter((r) => r.verdict !== 'done' && r.verdict !== 'not_done').length,
      ...scorerRates(runs),
      // A run time is a figure of the work only where some loop completed: a cell whose every
      // run failed (naive under a 529 fails at the first request) has none, not "0 ms".
      median_ms: completed === 0 ? null : quantile(times, 0.5),
      p95_ms: completed === 0 ? null : quantile(times, 0.95),
      mean_tokens: mean((r) => r.input_tokens + r.output_tokens),
      mean_usd: mean((r) => r.usd),
      wasted_tokens: mean((r) => r.wasted_tokens),
      wasted_usd: mean((r) => r.wasted_usd),
      errors_seen: runs.reduce((s, r) => s + r.errors_seen, 0),
      // The sub-agents' share, beside the runs' own: a run that started none adds 0.
      ...(runs.some((r) => r.subagent_usd !== undefined)
        ? {
            mean_subagent_tokens: mean(
              (r) => (r.subagent_input_tokens ?? 0) + (r.subagent_output_tokens ?? 0),
            ),
            mean_subagent_usd: mean((r) => r.subagent_usd ?? 0),
          }
        : {}),
    });
  }
  return rows;
}

/** Each scorer's pass rate over the runs that scored it, in the order they first appear (none: no field). */
function scorerRates(runs: readonly SweepRunMetrics[]): Pick<SweepRow, 'scorers'> {
  const tally = new Map<string, { passed: number; runs: number }>();
  for (const run of runs) {
    for (const [id, passed] of Object.entries(run.scorers ?? {})) {
      const t = tally.get(id) ?? { passed: 0, runs: 0 };
      t.runs += 1;
      if (passed === true) t.passed += 1;
      tally.set(id, t);
    }
  }
  if (tally.size === 0) return {};
  return { scorers: [...tally].map(([id, t]) => ({ id, ...t, rate: t.passed / t.runs })) };
}

/** Linear-interpolated quantile of sorted values (0 for none). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/**
 * 95 % Wilson score interval for k successes in n trials: honest at 0 % and 100 % and with
 * few seeds, where the normal approximation claims certainty it does not have.
 */
export function wilsonInterval(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
