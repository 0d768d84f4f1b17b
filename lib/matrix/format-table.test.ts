import { describe, expect, it } from 'vitest';
import type { Cell, RunnableCell } from './cells';
import { MATRIX_FAULTS } from './fault-kinds';
import { formatMatrix, symbolOf } from './format-table';
import type { CellResult, MatrixReport } from './run-matrix';

const fault = (id: string) => MATRIX_FAULTS.find((f) => f.id === id)!;
const runnable = (
  preset: RunnableCell['preset'],
  observed: CellResult['verdict']['observed'],
  failures: string[] = [],
): CellResult => ({
  cell: {
    fault: fault('drop'),
    point: 'mid_text',
    vendor: 'sim-anthropic',
    preset,
    status: 'runnable',
    action: { type: 'drop', during: 'text' },
    requestNo: 1,
    promise: { ending: 'completes', path: 'partial_kept', rule: 'the Partial rule' },
  },
  verdict: { observed, passed: failures.length === 0, hung: false, failures },
  wallMs: 50,
  events: 40,
});

describe('formatMatrix', () => {
  it('draws observed outcomes, skipped cells with their reasons, broken promises with their rule, and totals', () => {
    const kept = runnable('codesmith', { ending: 'completes', path: 'partial_kept' });
    const broken = runnable('s11', { ending: 'model_error', path: 'surfaced' }, [
      'ended model_error, promised completes',
    ]);
    const skipped: Cell = {
      fault: fault('http-401'),
      point: 'mid_text',
      vendor: 'sim-anthropic',
      preset: 'naive',
      status: 'not_applicable',
      why: 'an HTTP status comes before any body',
    };
    const report: MatrixReport = {
      cells: [kept.cell, broken.cell, skipped],
      results: [kept, broken],
      toolResults: [],
      cacheResults: [],
      baselines: [],
      wallMs: 1234,
    };
    const text = formatMatrix(report);
    expect(symbolOf(kept)).toBe('P');
    expect(symbolOf(broken)).toBe('!');
    expect(text).toMatch(/drop mid-text\s+\| P {3}! /);
    expect(text).toContain(
      'http-401 × mid-text × sim-anthropic × naive (1 cells): an HTTP status comes before any body',
    );
    expect(text).toContain('drop mid-text on sim-anthropic × s11: ended model_error, promised completes');
    expect(text).toContain('rule: the Partial rule');
    expect(text).toContain(
      'cells: 3 combinations, 2 run · passed 1 · failed 1 · hangs 0 · cannot apply 1 · waiting 0 · wall time 1.2 s',
    );
  });
});
