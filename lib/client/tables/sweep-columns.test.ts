import { describe, expect, it } from 'vitest';
import type { SweepRow } from '@/lib/protocol';
import { bestValues, scorerColumnId, SWEEP_COLUMNS, visibleColumns } from './sweep-columns';

function row(key: string, over: Partial<SweepRow>): SweepRow {
  return {
    key,
    config: key,
    config_label: key,
    scenario: 'fix-failing-test',
    fault_plan: 'overloaded-x3',
    vendor: 'sim-anthropic',
    runs: 20,
    completed: 20,
    completion_rate: 1,
    completion_ci: [0.84, 1],
    verdict_rate: 1,
    verdict_ci: [0.84, 1],
    unchecked: 0,
    median_ms: 15_800,
    p95_ms: 16_300,
    mean_tokens: 11_400,
    mean_usd: 0.037,
    wasted_tokens: 0,
    wasted_usd: 0,
    errors_seen: 0,
    ...over,
  };
}

describe('bestValues', () => {
  // The sweep page's own case: naive under overloaded ×3 fails every run at the first 529.
  const codesmith = row('codesmith', {});
  const naive = row('naive', {
    completed: 0,
    completion_rate: 0,
    completion_ci: [0, 0.16],
    verdict_rate: 0,
    verdict_ci: [0, 0.16],
    median_ms: 0,
    p95_ms: 0,
    mean_tokens: 0,
    mean_usd: 0,
    errors_seen: 20,
  });

  it('does not mark a cell whose every run failed as best on time, tokens or cost', () => {
    const best = bestValues([codesmith, naive]);
    for (const id of ['median_ms', 'p95_ms', 'mean_tokens', 'mean_usd']) expect(best.has(id), id).toBe(false);
  });

  it('still ranks outcomes over every cell, and effort among the cells that completed', () => {
    const quick = row('quick', { median_ms: 8_600, mean_usd: 0.03 });
    const best = bestValues([codesmith, naive, quick]);
    expect(best.get('completion_rate')).toBe(1);
    expect(best.get('errors_seen')).toBe(0);
    expect(best.get('median_ms')).toBe(8_600);
    expect(best.get('mean_usd')).toBe(0.03);
  });
});

describe('a run-time cell with no figure', () => {
  it('shows "—" and says why, never "0 ms"', () => {
    const failed = row('naive', { completed: 0, completion_rate: 0, median_ms: null, p95_ms: null });
    const empty = row('course', { runs: 0, completed: 0, completion_rate: 0, median_ms: null, p95_ms: null });
    for (const id of ['median_ms', 'p95_ms']) {
      const column = SWEEP_COLUMNS.find((c) => c.id === id)!;
      expect(column.show(failed)).toBe('—');
      expect(column.blank?.(failed)).toMatch(/no run in this cell completed its loop \(0 of 20\)/);
      expect(column.show(empty)).toBe('—');
      expect(column.blank?.(empty)).toMatch(/no run in this cell has finished yet/);
      expect(column.show(row('codesmith', {}))).not.toBe('—');
      expect(column.blank?.(row('codesmith', {}))).toBeUndefined();
    }
  });
});

describe('a column per scorer of the task verdict', () => {
  const hiddenFails = row('lookup', {
    scorers: [
      { id: 'visible-tests', passed: 20, runs: 20, rate: 1 },
      { id: 'hidden-tests', passed: 0, runs: 20, rate: 0 },
    ],
  });
  const general = row('general', {
    scorers: [
      { id: 'visible-tests', passed: 20, runs: 20, rate: 1 },
      { id: 'hidden-tests', passed: 17, runs: 20, rate: 0.85 },
      { id: 'answer', passed: 10, runs: 20, rate: 0.5 },
    ],
  });

  it('shows each scorer the rows report after "task done", in the order they first appear', () => {
    const ids = visibleColumns([hiddenFails, general]).map((c) => c.id);
    const at = ids.indexOf('verdict_rate');
    expect(ids.slice(at + 1, at + 4)).toEqual(
      ['visible-tests', 'hidden-tests', 'answer'].map(scorerColumnId),
    );
    expect(visibleColumns([row('plain', {})]).some((c) => c.id.startsWith('scorer:'))).toBe(false);
  });

  it("shows a row's rate with its counts, and — with a reason where the row has no such scorer", () => {
    const columns = visibleColumns([hiddenFails, general]);
    const hidden = columns.find((c) => c.id === scorerColumnId('hidden-tests'))!;
    expect(hidden.show(hiddenFails)).toBe('0 % (0/20)');
    expect(hidden.show(general)).toBe('85 % (17/20)');
    const answer = columns.find((c) => c.id === scorerColumnId('answer'))!;
    expect(answer.show(hiddenFails)).toBe('—');
    expect(answer.blank?.(hiddenFails)).toMatch(/no run in this cell reported the scorer "answer"/);
    expect(answer.blank?.(general)).toBeUndefined();
  });

  it('marks the best rate of a scorer only among the rows that report it', () => {
    const best = bestValues([hiddenFails, general]);
    expect(best.get(scorerColumnId('hidden-tests'))).toBe(0.85);
    // Equal everywhere: no best. Reported by one row only: nothing to rank against.
    expect(best.has(scorerColumnId('visible-tests'))).toBe(false);
    expect(best.has(scorerColumnId('answer'))).toBe(false);
  });
});
