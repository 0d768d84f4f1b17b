import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SweepPairedComparison, SweepRunMetrics } from '@/lib/protocol';
import { PairedComparisons } from './paired-comparisons';

const metric = (over: Partial<SweepPairedComparison['metrics'][number]>) => ({
  metric: 'done' as const,
  label: 'task done',
  test: 'exact McNemar' as const,
  n: 200,
  a_better: 0,
  b_better: 0,
  ties: 200,
  p: 1,
  mean_diff: 0,
  ci: [0, 0] as [number, number],
  better: null,
  seeds_needed: null,
  line: 'no detectable difference at this sample size on task done: no seed of 200 differs',
  ...over,
});

const COMPARISON: SweepPairedComparison = {
  a: 'codesmith|x',
  b: 'naive|x',
  a_label: 'codesmith',
  b_label: 'naive',
  context: 'fix-failing-test · overloaded · sim-anthropic',
  seeds: 200,
  metrics: [
    metric({
      a_better: 180,
      ties: 20,
      p: 1e-54,
      mean_diff: 0.9,
      ci: [0.85, 0.94],
      better: 'a',
      line: 'codesmith better on task done: 180 of 200 seeds differ, 180 favour codesmith; exact McNemar p < 0.0001',
    }),
    metric({
      metric: 'usd',
      label: '$/run',
      test: 'exact sign test',
      a_better: 3,
      b_better: 1,
      ties: 196,
      p: 0.625,
      seeds_needed: 1568,
      line: 'no detectable difference at this sample size on $/run: 4 of 200 seeds differ (3 favour codesmith, 1 favour naive)',
    }),
  ],
};

const render = (comparisons: SweepPairedComparison[] | null, runs: SweepRunMetrics[] = []) =>
  renderToStaticMarkup(createElement(PairedComparisons, { comparisons, sweepId: 'sw 1', runs }));

const run = (over: Partial<SweepRunMetrics>): SweepRunMetrics => ({
  job: 0,
  run_id: 'r',
  key: 'codesmith|x',
  seed: 1,
  complete: true,
  reason: 'end_turn',
  verdict: 'done',
  duration_ms: 1,
  input_tokens: 1,
  output_tokens: 1,
  usd: 0,
  attempts: 1,
  failed_attempts: 0,
  wasted_tokens: 0,
  wasted_usd: 0,
  errors_seen: 0,
  ...over,
});

describe('PairedComparisons', () => {
  it('puts ▲ only on the metric the paired test found, with its p-value and interval in the tooltip', () => {
    const html = render([COMPARISON]);
    expect(html.match(/▲/g)).toHaveLength(2); // the heading's key, and the one finding
    expect(html).toContain('data-metric="done" data-better="a"');
    expect(html).toContain('▲ codesmith');
    expect(html).toMatch(/data-metric="usd" title="[^"]*p = 0\.63/);
    expect(html).not.toContain('data-metric="usd" data-better');
    expect(html).toContain(
      'exact McNemar, p &lt; 0.0001, on 200 paired seeds (180 favour A, 0 favour B, 20 equal); 95 % interval of A − B: 0.850 to 0.940',
    );
    expect(html).toContain('no detectable difference at this sample size on $/run: 4 of 200 seeds differ');
  });

  it('links the first shared seed’s two runs to /compare, carrying the sweep for its paired result', () => {
    const runs = [
      run({ job: 0, run_id: 'a7', seed: 7 }),
      run({ job: 1, run_id: 'a3', seed: 3 }),
      run({ job: 2, run_id: 'b7', seed: 7, key: 'naive|x' }),
      run({ job: 3, run_id: 'b5', seed: 5, key: 'naive|x' }),
      run({ job: 4, run_id: 'b3', seed: 3, key: 'naive|x' }),
    ];
    expect(render([COMPARISON], runs)).toContain('href="/compare?a=a3&amp;b=b3&amp;sweep=sw%201"');
    expect(render([COMPARISON])).not.toContain('paired-compare-link');
  });

  it('says the comparisons wait for the end while the sweep runs', () => {
    expect(render(null)).toContain('Paired comparisons appear when the sweep ends.');
    expect(render([])).toBe('');
  });
});
