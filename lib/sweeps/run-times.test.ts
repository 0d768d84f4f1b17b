import { describe, expect, it } from 'vitest';
import type { SweepRunMetrics } from '@/lib/protocol';
import { formatTable } from './format-table';
import { resultsTable } from './results-table';
import { rowsToCsv } from './sweep-export';
import type { SweepCell } from './expand-grid';

const cell = (configId: string): SweepCell => ({
  key: `${configId}|overloaded`,
  configId,
  configLabel: configId,
  scenario: 'fix-failing-test',
  faultPlan: 'overloaded',
  vendor: 'sim-anthropic',
});

function run(key: string, job: number, over: Partial<SweepRunMetrics>): SweepRunMetrics {
  return {
    job,
    run_id: `r${job}`,
    key,
    seed: job,
    complete: true,
    reason: 'completed',
    verdict: 'done',
    duration_ms: 12_000,
    input_tokens: 9000,
    output_tokens: 300,
    usd: 0.03,
    attempts: 4,
    failed_attempts: 0,
    wasted_tokens: 0,
    wasted_usd: 0,
    errors_seen: 0,
    ...over,
  };
}

describe('the sweep results table’s run times', () => {
  // naive under overloaded: every run fails at the first 529, 0 ms of run clock in.
  const cells = [cell('codesmith'), cell('naive'), cell('course')];
  const metrics = [
    run('codesmith|overloaded', 0, { duration_ms: 15_000 }),
    run('codesmith|overloaded', 1, { duration_ms: 17_000 }),
    run('naive|overloaded', 2, {
      complete: false,
      reason: 'model_error',
      verdict: 'not_done',
      duration_ms: 0,
      errors_seen: 1,
    }),
    run('naive|overloaded', 3, {
      complete: false,
      reason: 'model_error',
      verdict: 'not_done',
      duration_ms: 0,
      errors_seen: 1,
    }),
  ];
  const rows = resultsTable({ cells, metrics });
  const byConfig = (id: string) => rows.find((r) => r.config === id)!;

  it('has no median or p95 for a cell whose every run failed, nor for a cell with no runs yet — not 0 ms', () => {
    expect(byConfig('codesmith')).toMatchObject({ median_ms: 16_000 });
    expect(byConfig('naive')).toMatchObject({ runs: 2, median_ms: null, p95_ms: null });
    expect(byConfig('course')).toMatchObject({ runs: 0, median_ms: null, p95_ms: null });
  });

  it('prints a dash for them in the terminal table, and marks the real median best', () => {
    const lines = formatTable(rows).split('\n');
    const naive = lines.find((l) => l.startsWith('naive'))!;
    expect(naive).not.toMatch(/0\.0 s/);
    expect(naive).toMatch(/—\s+—/);
    expect(lines.find((l) => l.startsWith('codesmith'))).toMatch(/16\.0 s\s/);
  });

  it('leaves them empty in the CSV, not 0', () => {
    const [header, ...lines] = rowsToCsv(rows).trim().split('\r\n');
    const at = header!.split(',').indexOf('median_ms');
    const cellsOf = (config: string) => lines.find((l) => l.startsWith(`${config},`))!.split(',');
    expect(cellsOf('naive')[at]).toBe('');
    expect(cellsOf('naive')[at + 1]).toBe('');
    expect(cellsOf('codesmith')[at]).toBe('16000');
  });
});
