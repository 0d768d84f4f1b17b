import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SweepGridSchema, type SweepRow, type SweepRunMetrics } from '@/lib/protocol';
import { validateXml } from '@/lib/testing/xmllint';
import { evaluateGates, formatGates, gateChecks, gateFilterProblems, junitXml } from './gates';
import { resultsTable } from './results-table';
import { listCells } from './expand-grid';

const dir = mkdtempSync(path.join(tmpdir(), 'loop-lab-gates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const grid = SweepGridSchema.parse({
  configurations: [
    { id: 'codesmith', preset: 'codesmith' },
    { id: 'naive', preset: 'naive' },
  ],
  seeds: { from: 1, to: 4 },
  assert: [{ that: 'errors_seen == 0', config: 'naive' }],
});
const cells = listCells(grid);

/** Four runs a row: codesmith done on all at $0.01–0.04, naive done on one, its loop complete on none. */
function runs(): SweepRunMetrics[] {
  return cells.flatMap((cell, c) =>
    [1, 2, 3, 4].map((seed, i) => ({
      job: c * 4 + i,
      run_id: `g-${c * 4 + i}`,
      key: cell.key,
      seed,
      complete: c === 0,
      reason: c === 0 ? 'end_turn' : 'error',
      verdict: c === 0 || seed === 1 ? ('done' as const) : ('not_done' as const),
      duration_ms: 1000 * seed,
      input_tokens: 100 * seed,
      output_tokens: 10,
      usd: 0.01 * seed,
      attempts: 1,
      failed_attempts: c,
      wasted_tokens: 0,
      wasted_usd: 0,
      errors_seen: c,
    })),
  );
}

describe('gates', () => {
  const metrics = runs();
  const rows: SweepRow[] = resultsTable({ cells, metrics });

  it('checks every row against the command line and only matching rows against a filtered grid assert', () => {
    const { checks, problems } = gateChecks({ cli: ['done_rate >= 0.9', 'p95_cost <= 0.05'], grid });
    expect(problems).toEqual([]);
    const results = evaluateGates({ checks, rows, metrics });
    expect(results.map((r) => [r.row, r.assertion, r.passed])).toEqual([
      ['codesmith · fix-failing-test · none · sim-anthropic', 'done_rate >= 0.9', true],
      ['codesmith · fix-failing-test · none · sim-anthropic', 'p95_cost <= 0.05', true],
      ['naive · fix-failing-test · none · sim-anthropic', 'done_rate >= 0.9', false],
      ['naive · fix-failing-test · none · sim-anthropic', 'p95_cost <= 0.05', true],
      ['naive · fix-failing-test · none · sim-anthropic', 'errors_seen == 0', false],
    ]);
    // p95 of $0.01, 0.02, 0.03, 0.04 (linear interpolation): 0.0385.
    expect(results[1]!.actual).toBeCloseTo(0.0385, 12);
    expect(results[2]!.message).toBe('done_rate = 0.25, expected >= 0.9');
    expect(results[4]!.source).toBe('assert.0');
    const table = formatGates(results);
    expect(table).toMatch(
      /FAIL\s+done_rate >= 0\.9\s+naive · fix-failing-test · none · sim-anthropic\s+0\.25/,
    );
    expect(table).toContain('2 of 5 assertions failed');
  });

  it('fails a run-time assertion on a row with no completed loop, saying why', () => {
    const { checks } = gateChecks({ cli: ['p95_ms <= 100000'], grid: { ...grid, assert: undefined } });
    const [, naive] = evaluateGates({ checks, rows, metrics });
    expect(naive).toMatchObject({ passed: false, actual: null });
    expect(naive!.message).toBe(
      'p95_ms has no value: no run of this row completed its loop, so it has no run time',
    );
  });

  it('names the bad assertion and what to write', () => {
    expect(gateChecks({ cli: ['done >= 1'], grid }).problems).toEqual([
      expect.stringMatching(
        /^--assert "done >= 1": unknown metric "done" \(did you mean done_rate\?\); write one of runs, done_rate,/,
      ),
    ]);
    expect(gateFilterProblems({ ...grid, assert: [{ that: 'runs >= 1', config: 'nave' }] })).toEqual([
      'assert.0.config: the grid has no config "nave"; choose from codesmith, naive',
    ]);
  });

  it('writes JUnit XML that validates against the JUnit schema, a failure per unmet assertion', () => {
    const { checks } = gateChecks({ cli: ['done_rate >= 0.9', 'p95_cost <= 0.05'], grid });
    const results = evaluateGates({ checks, rows, metrics });
    const text = junitXml({ sweepId: 'sweep-1', name: 'a & b <"quoted">', status: 'completed', results });
    const file = path.join(dir, 'report.xml');
    writeFileSync(file, text);
    const check = validateXml(file);
    expect(check.output).toContain('validates');
    expect(check.valid).toBe(true);
    expect(text).toContain('<testsuites name="loop-lab sweep" tests="5" failures="2" errors="0">');
    expect(text).toContain('name="a &amp; b &lt;&quot;quoted&quot;&gt;"');
    expect(text.match(/<testcase /g)).toHaveLength(5);
    expect(text).toContain(
      '<failure type="assertion" message="done_rate = 0.25, expected &gt;= 0.9">done_rate &gt;= 0.9 failed on row naive · fix-failing-test · none · sim-anthropic (--assert): done_rate = 0.25, expected &gt;= 0.9</failure>',
    );
  });

  it('the schema check can fail: a report missing a required count does not validate', () => {
    const file = path.join(dir, 'broken.xml');
    writeFileSync(
      file,
      '<testsuites><testsuite name="x" tests="1" errors="0"><testcase name="t"/></testsuite></testsuites>',
    );
    const check = validateXml(file);
    expect(check.valid).toBe(false);
    expect(check.output).toContain("'failures' is required");
  });
});
