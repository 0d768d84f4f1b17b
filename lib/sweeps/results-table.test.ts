import { describe, expect, it } from 'vitest';
import type { SweepRunMetrics } from '@/lib/protocol';
import { resultsTable, wilsonInterval } from './results-table';

const cell = {
  key: 'c|fix-failing-test|none|sim-anthropic',
  configId: 'c',
  configLabel: 'c',
  scenario: 'fix-failing-test',
  faultPlan: 'none',
  vendor: 'sim-anthropic' as const,
};
const run = (job: number, complete: boolean, verdict: SweepRunMetrics['verdict']): SweepRunMetrics => ({
  job,
  run_id: `s-${job}`,
  key: cell.key,
  seed: job,
  complete,
  reason: complete ? 'end_turn' : 'max_iterations',
  verdict,
  duration_ms: 1000 + job,
  input_tokens: 10,
  output_tokens: 5,
  usd: 0.01,
  attempts: 1,
  failed_attempts: 0,
  wasted_tokens: 0,
  wasted_usd: 0,
  errors_seen: 0,
});

describe('resultsTable', () => {
  it('takes the task verdict rate from task_verdict, not from how the loop ended', () => {
    // Four loops completed; the check passed on two of them; one could not be judged.
    const metrics = [
      run(0, true, 'done'),
      run(1, true, 'done'),
      run(2, true, 'not_done'),
      run(3, true, 'not_checkable'),
      run(4, false, 'not_done'),
    ];
    const [row] = resultsTable({ cells: [cell], metrics });
    expect(row!.completion_rate).toBe(0.8);
    expect(row!.verdict_rate).toBe(0.4);
    expect(row!.verdict_ci).toEqual(wilsonInterval(2, 5));
    expect(row!.unchecked).toBe(1);
  });

  it('counts a run whose log has no verdict (stored before verdicts) as unchecked, not done', () => {
    const legacy = { ...run(0, true, null) } as Partial<SweepRunMetrics>;
    delete legacy.verdict;
    const [row] = resultsTable({ cells: [cell], metrics: [legacy as SweepRunMetrics, run(1, true, 'done')] });
    expect(row!.verdict_rate).toBe(0.5);
    expect(row!.unchecked).toBe(1);
  });
});
